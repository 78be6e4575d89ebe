import type { PageContext } from "@tessera/http";
import { renderLayout } from "./layout.js";

/** The home page: what this app is and where to go next. */
export function renderHomePage(context: PageContext): string {
  const next = context.signedInEmail
    ? `<p>You are signed in. See <a href="/account">your account</a>.</p>`
    : `<p><a href="/signup">Sign up</a> or <a href="/login">log in</a> to start.</p>`;
  return renderLayout({
    title: "Home",
    context,
    mainHtml: `<h1>Tessera example app</h1>
<p>The whole Tessera service in one process on SQLite: accounts, typed records, webhooks and
external jobs, served as HTML pages and as a JSON API.</p>
${next}`,
  });
}
