import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";

/**
 * The Chromium at `CHROMIUM_PATH`, else Debian's /usr/bin/chromium (the one place the browser
 * tests name it; scripts/ensure-chromium.sh checks the same), headless, with the flags that keep
 * it off the network this machine does not have.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * Where the browser tests save their screenshots: docs/screenshots/ when `SAVE_SCREENSHOTS=1`
 * (to refresh the documentation), else a temporary folder, so a test run leaves the working
 * tree as it was. Ends with a slash; the folder exists.
 */
export function screenshotFolder(): string {
  const folder =
    process.env.SAVE_SCREENSHOTS === "1"
      ? fileURLToPath(new URL("../../../../docs/screenshots/", import.meta.url))
      : `${mkdtempSync(join(tmpdir(), "tessera-screenshots-"))}/`;
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** What a page reported while a test drove it. */
export interface PageReports {
  /** Console errors (a CSP refusal is one) and uncaught exceptions, with where they came from. */
  readonly errors: string[];
  /** The page's `securitypolicyviolation` events: the directive and what it blocked. */
  violations(): Promise<string[]>;
}

/**
 * Records a page's console errors and Content-Security-Policy violations from now on (and in
 * every document it loads after). The browser's own request for /favicon.ico is left out: the
 * app has none (a JSON 404).
 */
export async function watchPage(page: Page): Promise<PageReports> {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.location().url.endsWith("/favicon.ico")) return;
    if (message.type() === "error") errors.push(`${message.text()} ${message.location().url}`);
  });
  page.on("pageerror", (error) => errors.push(error.message));
  // Kept in sessionStorage, so violations of earlier pages of the tab count too.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const seen = JSON.parse(sessionStorage.getItem("csp-violations") ?? "[]") as string[];
      seen.push(`${event.violatedDirective} ${event.blockedURI}`);
      sessionStorage.setItem("csp-violations", JSON.stringify(seen));
    });
  });
  return {
    errors,
    violations: () =>
      page.evaluate(() => JSON.parse(sessionStorage.getItem("csp-violations") ?? "[]") as string[]),
  };
}
