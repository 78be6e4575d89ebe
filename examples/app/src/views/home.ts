import { renderLayout } from "./layout.js";

/** The home page: what this app is and where to go next. */
export function renderHomePage(): string {
  return renderLayout({
    title: "Home",
    mainHtml: `<h1>Tessera example app</h1>
<p>The whole Tessera service in one process on SQLite: accounts, typed records, webhooks and
external jobs, served as HTML pages and as a JSON API.</p>`,
  });
}
