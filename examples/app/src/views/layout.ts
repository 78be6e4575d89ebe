import { html, joinHtml, type MessageParams, type SafeHtml, unsafeHtml } from "@tessera/core";
import { impersonationBanner, type Layout, type PageContext, type PageMenu } from "@tessera/http";
import { ORGANIZATION_SWITCHER_MENU, organizationMessages } from "@tessera/organizations/routes";
import { outboundMessages } from "@tessera/outbound/routes";
import { type AppMessageId, appMessages } from "../app-messages.js";
import { needsRichTextEditor, richTextHead } from "./rich-text-head.js";

/**
 * An app message in the page's language, as HTML (its text escaped). Inside a plain template
 * literal it reads as its escaped text too.
 */
export function say(context: PageContext, id: AppMessageId, params?: MessageParams): SafeHtml {
  return html`${appMessages.text(context.locale, id, params)}`;
}

const RECORD_LINKS = [
  ["/posts", "app.posts"],
  ["/comments", "app.comments"],
  ["/labels", "app.labels"],
  ["/reactions", "app.reactions"],
  ["/notes", "app.notes"],
] as const;

/**
 * A header menu as a disclosure (no script): its label, with the current link's text after it,
 * opens the list of its links; the current one is marked for screen readers and the eye.
 */
function renderMenu(menu: PageMenu): SafeHtml {
  const current = menu.links.find((link) => link.current);
  const links = menu.links.map(
    (link) =>
      html`<li><a href="${link.href}"${link.current ? html` aria-current="true"` : ""}>${link.text}</a></li>`,
  );
  return html`<details class="header-menu">
<summary>${menu.label}${current ? html`<span class="header-menu-current">: ${current.text}</span>` : ""}</summary>
<ul aria-label="${menu.label}">${links}</ul>
</details>`;
}

/**
 * The organization switcher when the page has it (see `withOrganizationSwitcher`), else the
 * plain link to the organization list.
 */
function renderOrganizations(context: PageContext): SafeHtml {
  const switcher = context.headerMenus?.find((menu) => menu.id === ORGANIZATION_SWITCHER_MENU);
  if (switcher) return renderMenu(switcher);
  return html`<a href="/orgs">${organizationMessages.text(context.locale, "organizations.page_title")}</a>`;
}

function renderHeader(context: PageContext): SafeHtml {
  const records = RECORD_LINKS.map(([href, id]) => html`<a href="${href}">${say(context, id)}</a>`);
  const account = context.signedInEmail
    ? html`${joinHtml(records, " ")}
<a href="/account">${context.signedInEmail}</a>
${renderOrganizations(context)}
<a href="/account/webhooks">${outboundMessages.text(context.locale, "outbound.account_link")}</a>
<form method="post" action="/logout" class="inline"><button type="submit" class="link">${say(context, "app.log_out")}</button></form>`
    : html`<a href="/login">${say(context, "app.log_in")}</a> <a href="/signup">${say(context, "app.sign_up")}</a>`;
  return html`<header class="site-header">
<a class="brand" href="/">${say(context, "app.brand")}</a>
<nav aria-label="${say(context, "app.account_navigation")}">${account}</nav>
</header>`;
}

function renderFlashes(context: PageContext): SafeHtml {
  // Notices are polite status messages; alerts interrupt. Both regions exist on every page, so
  // screen readers announce what lands in them.
  const list = (kind: "notice" | "alert") =>
    context.flashes
      .filter((flash) => flash.kind === kind)
      .map((flash) => html`<p class="flash flash-${kind}">${flash.message}</p>`);
  return html`<div class="flashes">
<div role="status" aria-live="polite">${list("notice")}</div>
<div role="alert">${list("alert")}</div>
</div>`;
}

/**
 * The page frame shared by every HTML page: head, header with the account links, flashes.
 * Pages with a rich-text editor also load Trix (before app.css, so the app's rules win), its
 * scripts carrying the page's CSP nonce; the others do not pay for it.
 */
export const renderLayout: Layout = ({ title, mainHtml, context }) => {
  // The Layout contract: the page hands its main content over as HTML it has escaped.
  const main = unsafeHtml(mainHtml);
  const editorHead = needsRichTextEditor(mainHtml) && html`${richTextHead(context.cspNonce)}\n`;
  return html`<!doctype html>
<html lang="${context.locale?.tag ?? "en"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${say(context, "app.title_suffix", { title })}</title>
${editorHead}<link rel="stylesheet" href="/assets/app.css">
</head>
<body>${impersonationBanner(context)}
${renderHeader(context)}
<main id="main">
${renderFlashes(context)}
${main}
</main>
</body>
</html>
`.toString();
};
