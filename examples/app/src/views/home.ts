import type { PageContext } from "@tessera/http";
import { appMessages } from "../app-messages.js";
import { renderLayout, say } from "./layout.js";

/** The home page: what this app is and where to go next. */
export function renderHomePage(context: PageContext): string {
  const next = appMessages.text(
    context.locale,
    context.signedInEmail ? "app.home_signed_in_html" : "app.home_visitor_html",
  );
  return renderLayout({
    title: appMessages.text(context.locale, "app.home_title"),
    context,
    mainHtml: `<h1>${say(context, "app.home_heading")}</h1>
<p>${say(context, "app.home_intro")}</p>
<p>${next}</p>`,
  });
}
