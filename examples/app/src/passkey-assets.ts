import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { AppHono } from "./accounts.js";
import { staticAssetAnswer } from "./static-asset.js";

// @simplewebauthn/browser from the app's own dependencies, served under /assets like Trix: no
// CDN, so no third party sees who signs in. Its package exports only its modules, so the UMD
// bundle is found beside the CommonJS entry.
const require = createRequire(import.meta.url);
const browserPackage = join(dirname(require.resolve("@simplewebauthn/browser")), "..");
const ASSETS: Readonly<Record<string, string>> = {
  "/assets/simplewebauthn-browser.js": readFileSync(
    join(browserPackage, "dist/bundle/index.umd.min.js"),
    "utf8",
  ),
  "/assets/passkeys.js": readFileSync(new URL("../public/passkeys.js", import.meta.url), "utf8"),
};

/** The scripts the account pages load for their passkey buttons, in order. */
export const PASSKEY_SCRIPTS = Object.keys(ASSETS);

/** Serves @simplewebauthn/browser's UMD bundle and the script that wires the passkey buttons. */
export function mountPasskeyAssets(app: AppHono): void {
  for (const [path, body] of Object.entries(ASSETS)) {
    app.get(path, () => staticAssetAnswer(body, "text/javascript; charset=utf-8"));
  }
}
