export { richTextSanitizer } from "./rich-text-sanitizer.js";
export { RICH_TEXT_TAGS } from "./rich-text-tags.js";
export { RICH_TEXT_SLICE, sanitizeRichText, sanitizeRichTextAsync } from "./sanitize.js";
