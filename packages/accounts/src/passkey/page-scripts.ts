import { escapeHtml } from "@tessera/http";

/**
 * `<script>` tags for `urls`, each with the page's CSP nonce: the passkey buttons' browser code,
 * which the app serves (see `passkeyScripts`). Empty without urls.
 */
export function pageScriptTags(urls: readonly string[], cspNonce: string | undefined): string {
  const nonce = cspNonce === undefined ? "" : ` nonce="${escapeHtml(cspNonce)}"`;
  return urls.map((url) => `<script src="${escapeHtml(url)}" defer${nonce}></script>`).join("\n");
}
