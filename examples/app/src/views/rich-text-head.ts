/** The `<head>` tags a page with a rich-text editor needs; the layout adds them only there. */
export const RICH_TEXT_HEAD = `<link rel="stylesheet" href="/assets/trix.css">
<script src="/assets/trix.js" defer></script>
<script src="/assets/rich-text.js" defer></script>`;

/** True when a page's main content holds a Trix editor (the record forms' rich_text input). */
export function needsRichTextEditor(mainHtml: string): boolean {
  // mainHtml is the app's own markup: user text in it is escaped (`&lt;trix-editor`) and
  // sanitized rich text never keeps this tag, so only a form's editor matches.
  return mainHtml.includes("<trix-editor ");
}
