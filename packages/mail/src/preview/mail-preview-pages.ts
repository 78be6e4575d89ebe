import { type HtmlValue, html, joinHtml, type SafeHtml } from "@tessera/core";
import type { Layout, PageContext } from "@tessera/http";
import type { PreviewedMail } from "./previewed-mail.js";

/** What a preview page is written into: the app's frame, the request's context, its path. */
export interface MailPreviewFrame {
  /** The app's page frame (`plainLayout` of `@tessera/http` when it has none). */
  readonly layout: Layout;
  readonly context: PageContext;
  /** Where the preview is mounted: `/dev/mail`. */
  readonly basePath: string;
}

/**
 * The frame's sandbox: no scripts and no same origin, so a mail's HTML can neither run code
 * nor reach the app (its document has an opaque origin of its own); its links may open in a new
 * tab (the `<base target="_blank">` given to every previewed mail), which the app's pages allow
 * where they refuse to be framed. Never add `allow-scripts` or `allow-same-origin`: together
 * they let the mail remove its own sandbox.
 */
export const MAIL_FRAME_SANDBOX = "allow-popups allow-popups-to-escape-sandbox";

// An http(s) address up to the next space, quote or angle bracket, as account mails write links.
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

function mailHref(mail: PreviewedMail, basePath: string): string {
  return `${basePath}/${encodeURIComponent(mail.key)}`;
}

function renderTime(mail: PreviewedMail): SafeHtml {
  return html`<time datetime="${mail.sentAt}">${mail.sentAt.replace("T", " ").slice(0, 19)} UTC</time>`;
}

/** The page of `GET /dev/mail`: the mails, newest first, each linking to its own page. */
export function renderMailListPage(
  mails: readonly PreviewedMail[],
  frame: MailPreviewFrame,
): string {
  const rows = mails.map(
    (mail) => html`<tr>
<td>${mail.to}</td>
<td><a href="${mailHref(mail, frame.basePath)}">${mail.subject || "(no subject)"}</a></td>
<td>${renderTime(mail)}</td>
<td>${mail.status}</td>
</tr>`,
  );
  const body =
    mails.length === 0
      ? html`<p>No mail yet: the mails the app sends (sign-up, sign-in links, password resets) appear here.</p>`
      : html`<table class="mail-preview">
<caption>Newest first; also as JSON at <a href="${frame.basePath}.json">${frame.basePath}.json</a></caption>
<thead><tr><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Sent</th><th scope="col">Status</th></tr></thead>
<tbody>
${joinHtml(rows, "\n")}
</tbody>
</table>`;
  return frame.layout({
    title: "Mail preview",
    context: frame.context,
    mainHtml: html`<h1>Mail preview</h1>
<p>The mails of the outbox, as the app handed them over. Outside production only.</p>
${body}`.toString(),
  });
}

/**
 * The page of `GET /dev/mail/{key}`: one mail's headers, its HTML part in a sandboxed frame
 * ({@link MAIL_FRAME_SANDBOX}) and its text part with its links clickable.
 */
export function renderMailPage(mail: PreviewedMail, frame: MailPreviewFrame): string {
  // The frame's document is the srcdoc attribute's text: escaped as such, it is never markup
  // of this page.
  const htmlPart =
    mail.html === null
      ? html`<p>This mail has no HTML part.</p>`
      : html`<iframe class="mail-html" title="The HTML part of the mail" sandbox="${MAIL_FRAME_SANDBOX}" srcdoc="${`<base target="_blank">${mail.html}`}"></iframe>`;
  const failure =
    mail.lastError !== null && html`<p>Last error: <code>${mail.lastError}</code></p>`;
  return frame.layout({
    title: `Mail: ${mail.subject}`,
    context: frame.context,
    mainHtml: html`<p><a href="${frame.basePath}">All mails</a></p>
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

/** The page of `GET /dev/mail/{key}` for a key the outbox's `mail` queue does not hold. */
export function renderMissingMailPage(frame: MailPreviewFrame): string {
  return frame.layout({
    title: "Mail not found",
    context: frame.context,
    mainHtml: html`<h1>Mail not found</h1>
<p>The outbox holds no mail with this key. <a href="${frame.basePath}">All mails</a></p>`.toString(),
  });
}
