import type { Layout, PageContext } from "@tessera/http";
import { escapeHtml } from "@tessera/http";
import { needsRichTextEditor, richTextHead } from "./rich-text-head.js";

function renderHeader(context: PageContext): string {
  const account = context.signedInEmail
    ? `<a href="/posts">Posts</a> <a href="/comments">Comments</a> <a href="/labels">Labels</a> <a href="/reactions">Reactions</a> <a href="/notes">Notes</a>
<a href="/account">${escapeHtml(context.signedInEmail)}</a>
<form method="post" action="/logout" class="inline"><button type="submit" class="link">Log out</button></form>`
    : `<a href="/login">Log in</a> <a href="/signup">Sign up</a>`;
  return `<header class="site-header">
<a class="brand" href="/">Tessera example</a>
<nav aria-label="Account">${account}</nav>
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
<title>${escapeHtml(title)} · Tessera example</title>
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
