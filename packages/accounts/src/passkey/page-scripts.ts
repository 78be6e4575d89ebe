import { html, joinHtml, type SafeHtml } from "@tessera/core";

/**
 * `<script>` tags for `urls`, each with the page's CSP nonce: the passkey buttons' browser code,
 * which the app serves (see `passkeyScripts`). Empty without urls.
 */
export function pageScriptTags(urls: readonly string[], cspNonce: string | undefined): SafeHtml {
  const nonce = cspNonce !== undefined && html` nonce="${cspNonce}"`;
  return joinHtml(
    urls.map((url) => html`<script src="${url}" defer${nonce}></script>`),
    "\n",
  );
}
