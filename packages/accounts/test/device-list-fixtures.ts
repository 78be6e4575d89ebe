// What the device list's suites share: the browsers they sign in with, and the least layout
// that shows what they read of a page.
import { escapeHtml, type Layout } from "@tessera/http";

/** A desktop Firefox's `User-Agent`. */
export const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
/** A desktop Chrome's `User-Agent`. */
export const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

/** The least layout that shows what the tests read: who is signed in, and the flashes. */
export const deviceListLayout: Layout = ({ title, mainHtml, context }) =>
  `<title>${escapeHtml(title)}</title>
<header>${context.signedInEmail === undefined ? "visitor" : escapeHtml(context.signedInEmail)}</header>
${context.flashes.map((flash) => `<p class="flash-${flash.kind}">${escapeHtml(flash.message)}</p>`).join("\n")}
<main>${mainHtml}</main>`;
