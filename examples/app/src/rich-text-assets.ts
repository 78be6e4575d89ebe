import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AppHono } from "./accounts.js";
import { staticAssetAnswer } from "./static-asset.js";

// Trix from the app's own dependencies, served under /assets: no CDN, so pages work offline and
// no third party sees who edits what.
const require = createRequire(import.meta.url);
const ASSETS: Readonly<Record<string, { readonly type: string; readonly body: string }>> = {
  "/assets/trix.js": {
    type: "text/javascript; charset=utf-8",
    body: readFileSync(require.resolve("trix/dist/trix.umd.min.js"), "utf8"),
  },
  "/assets/trix.css": {
    type: "text/css; charset=utf-8",
    body: readFileSync(require.resolve("trix/dist/trix.css"), "utf8"),
  },
  "/assets/rich-text.js": {
    type: "text/javascript; charset=utf-8",
    body: readFileSync(new URL("../public/rich-text.js", import.meta.url), "utf8"),
  },
};

/** Serves Trix's script and stylesheet and the app's editor script under /assets. */
export function mountRichTextAssets(app: AppHono): void {
  for (const [path, asset] of Object.entries(ASSETS)) {
    app.get(path, () => staticAssetAnswer(asset.body, asset.type));
  }
}
