import type { MessageParams } from "@tessera/core";
import type { Layout, PageContext } from "@tessera/http";
import { escapeHtml } from "@tessera/http";
import { type AppMessageId, appMessages } from "../app-messages.js";
import { outboundMessages } from "../outbound-messages.js";
import { needsRichTextEditor, richTextHead } from "./rich-text-head.js";

/** An app message in the page's language, escaped for HTML. */
export function say(context: PageContext, id: AppMessageId, params?: MessageParams): string {
  return escapeHtml(appMessages.text(context.locale, id, params));
}

const RECORD_LINKS = [
  ["/posts", "app.posts"],
  ["/comments", "app.comments"],
  ["/labels", "app.labels"],
  ["/reactions", "app.reactions"],
  ["/notes", "app.notes"],
] as const;

function renderHeader(context: PageContext): string {
  const records = RECORD_LINKS.map(([href, id]) => `<a href="${href}">${say(context, id)}</a>`);
  const account = context.signedInEmail
    ? `${records.join(" ")}
<a href="/account">${escapeHtml(context.signedInEmail)}</a>
<a href="/account/webhooks">${escapeHtml(outboundMessages.text(context.locale, "outbound.account_link"))}</a>
<form method="post" action="/logout" class="inline"><button type="submit" class="link">${say(context, "app.log_out")}</button></form>`
    : `<a href="/login">${say(context, "app.log_in")}</a> <a href="/signup">${say(context, "app.sign_up")}</a>`;
  return `<header class="site-header">
<a class="brand" href="/">${say(context, "app.brand")}</a>
<nav aria-label="${say(context, "app.account_navigation")}">${account}</nav>
</header>`;
}

function renderFlashes(context: PageContext): string {
  // Notices are polite status messages; alerts interrupt. Both regions exist on every page, so
  // screen readers announce what lands in them.
  const list = (kind: "notice" | "alert") =>
    context.flashes
      .filter((flash) => flash.kind === kind)
      .map((flash) => `<p class="flash flash-${kind}">${escapeHtml(flash.message)}</p>`)
      .join("");
  return `<div class="flashes">
<div role="status" aria-live="polite">${list("notice")}</div>
<div role="alert">${list("alert")}</div>
</div>`;
}

/**
 * The page frame shared by every HTML page: head, header with the account links, flashes.
 * Pages with a rich-text editor also load Trix (before app.css, so the app's rules win), its
 * scripts carrying the page's CSP nonce; the others do not pay for it.
 */
export const renderLayout: Layout = ({ title, mainHtml, context }) => `<!doctype html>
<html lang="${escapeHtml(context.locale?.tag ?? "en")}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${say(context, "app.title_suffix", { title })}</title>
${needsRichTextEditor(mainHtml) ? `${richTextHead(context.cspNonce)}\n` : ""}<link rel="stylesheet" href="/assets/app.css">
</head>
<body>
${renderHeader(context)}
<main id="main">
${renderFlashes(context)}
${mainHtml}
</main>
</body>
</html>
`;
