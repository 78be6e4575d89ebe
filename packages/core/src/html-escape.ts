const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes `& < > " '` so text is safe in HTML element content and in quoted attribute values.
 * Not for unquoted attributes, URLs in `href` (check the scheme), `<script>` or `<style>`.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}
