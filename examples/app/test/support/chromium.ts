import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "playwright-core";

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
