import { type HtmlValue, html, joinHtml, type SafeHtml } from "@tessera/core";
import type { PageContext } from "@tessera/http";
import type { PreviewedMail } from "../mail-previews.js";
import { renderLayout } from "./layout.js";

/**
 * The iframe's sandbox: no scripts and no same origin, so a mail's HTML can neither run code
 * nor reach the app; its links may open in a new tab (the `<base target="_blank">` given to
 * every previewed mail), which the app's pages allow where they refuse to be framed.
 */
const SANDBOX = "allow-popups allow-popups-to-escape-sandbox";

// An http(s) address up to the next space or angle bracket, as account mails write links.
const LINK = /https?:\/\/[^\s<>"]+/g;

/** `text` as HTML, with each http(s) address a link (the pattern admits no other scheme). */
function linkedText(text: string): SafeHtml {
  const pieces: HtmlValue[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const url = match[0];
    pieces.push(text.slice(last, match.index), html`<a href="${url}">${url}</a>`);
    last = match.index + url.length;
  }
  pieces.push(text.slice(last));
  return html`${pieces}`;
}

function mailHref(mail: PreviewedMail): string {
  return `/dev/mail/${encodeURIComponent(mail.key)}`;
}

function renderTime(mail: PreviewedMail): SafeHtml {
  return html`<time datetime="${mail.sentAt}">${mail.sentAt.replace("T", " ").slice(0, 19)} UTC</time>`;
}

/** `GET /dev/mail`: the mails the app sent, newest first. */
export function renderMailList(mails: readonly PreviewedMail[], context: PageContext): string {
  const rows = mails.map(
    (mail) => html`<tr>
<td>${mail.to}</td>
<td><a href="${mailHref(mail)}">${mail.subject || "(no subject)"}</a></td>
<td>${renderTime(mail)}</td>
<td>${mail.status}</td>
</tr>`,
  );
  const body =
    mails.length === 0
      ? html`<p>No mail yet: the mails the app sends (sign-up, sign-in links, password resets) appear here.</p>`
      : html`<table class="mail-preview">
<caption>Newest first; also as JSON at <a href="/dev/mail.json">/dev/mail.json</a></caption>
<thead><tr><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Sent</th><th scope="col">Status</th></tr></thead>
<tbody>
${joinHtml(rows, "\n")}
</tbody>
</table>`;
  return renderLayout({
    title: "Mail preview",
    context,
    mainHtml: html`<h1>Mail preview</h1>
<p>The mails of the outbox, as the app handed them over. Outside production only.</p>
${body}`.toString(),
  });
}

/** `GET /dev/mail/{key}`: one mail, its HTML part in a sandboxed frame and its text part. */
export function renderMail(mail: PreviewedMail, context: PageContext): string {
  // The frame's document is the srcdoc attribute's text: escaped as such, it is never markup
  // of this page.
  const htmlPart =
    mail.html === null
      ? html`<p>This mail has no HTML part.</p>`
      : html`<iframe class="mail-html" title="The HTML part of the mail" sandbox="${SANDBOX}" srcdoc="${`<base target="_blank">${mail.html}`}"></iframe>`;
  const failure =
    mail.lastError !== null && html`<p>Last error: <code>${mail.lastError}</code></p>`;
  return renderLayout({
    title: `Mail: ${mail.subject}`,
    context,
    mainHtml: html`<p><a href="/dev/mail">All mails</a></p>
<h1>${mail.subject || "(no subject)"}</h1>
<dl class="mail-headers">
<dt>To</dt><dd>${mail.to}</dd>
<dt>Sent</dt><dd>${renderTime(mail)}</dd>
<dt>Status</dt><dd>${mail.status}</dd>
</dl>
${failure}
<h2>HTML</h2>
${htmlPart}
<h2>Text</h2>
<pre class="mail-text">${linkedText(mail.text)}</pre>`.toString(),
  });
}
