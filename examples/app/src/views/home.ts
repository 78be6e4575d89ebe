import { html, unsafeHtml } from "@tessera/core";
import type { PageContext } from "@tessera/http";
import { appMessages } from "../app-messages.js";
import { renderLayout, say } from "./layout.js";

/** The home page: what this app is and where to go next. */
export function renderHomePage(context: PageContext): string {
  // An `_html` message holds markup from the app's own catalogs, never user input.
  const next = unsafeHtml(
    appMessages.text(
      context.locale,
      context.signedInEmail ? "app.home_signed_in_html" : "app.home_visitor_html",
    ),
  );
  return renderLayout({
    title: appMessages.text(context.locale, "app.home_title"),
    context,
    mainHtml: html`<h1>${say(context, "app.home_heading")}</h1>
<p>${say(context, "app.home_intro")}</p>
<p>${next}</p>`.toString(),
  });
}
