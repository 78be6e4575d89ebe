import { html, type SafeHtml } from "@tessera/core";

/**
 * The `<head>` tags a page with a rich-text editor needs; the layout adds them only there. The
 * scripts carry the page's CSP nonce, and so does the `csp-nonce` meta tag Trix reads for the
 * `<style>` element it inserts (as a `nonce` attribute, which browsers hide from the page).
 */
export function richTextHead(cspNonce: string | undefined): SafeHtml {
  const nonce = cspNonce !== undefined && html` nonce="${cspNonce}"`;
  const meta = cspNonce !== undefined && html`<meta name="csp-nonce"${nonce}>\n`;
  return html`${meta}<link rel="stylesheet" href="/assets/trix.css">
<script src="/assets/trix.js" defer${nonce}></script>
<script src="/assets/rich-text.js" defer${nonce}></script>`;
}

/** True when a page's main content holds a Trix editor (the record forms' rich_text input). */
export function needsRichTextEditor(mainHtml: string): boolean {
  // mainHtml is the app's own markup: user text in it is escaped (`&lt;trix-editor`) and
  // sanitized rich text never keeps this tag, so only a form's editor matches.
  return mainHtml.includes("<trix-editor ");
}
