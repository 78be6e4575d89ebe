// Our own `html` rather than `hono/html`: core has no dependencies and runs under every adapter
// (Express, Fastify, Next.js, Hono), and the pages need only the synchronous, escaping half of
// Hono's helper, not its promises and streaming callbacks.
import { escapeHtml } from "./html-escape.js";

let trust: (markup: string) => SafeHtml;

/**
 * Markup that is safe to send as is: made only by {@link html}, {@link joinHtml} and
 * {@link unsafeHtml}, so a plain string can never pass for it. `toString()` gives the markup,
 * so it also reads as text wherever a string is expected (`new Response(String(page))`).
 */
export class SafeHtml {
  readonly #markup: string;

  private constructor(markup: string) {
    this.#markup = markup;
    Object.freeze(this);
  }

  static {
    trust = (markup) => new SafeHtml(markup);
  }

  /** The markup. */
  toString(): string {
    return this.#markup;
  }
}

/**
 * What `html` accepts between `${}`. Text, numbers, bigints and `true` are escaped (`true` reads
 * `true`); `SafeHtml` goes in as is; an array's items by these same rules, joined with nothing;
 * `null`, `undefined` and `false` give nothing. Other objects are refused (a `Date` or a record
 * would read `[object Object]` or its own `toString`): format them into text first.
 */
export type HtmlValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | undefined
  | SafeHtml
  | readonly HtmlValue[];

function markupOf(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.toString();
  if (Array.isArray(value)) return value.map(markupOf).join("");
  switch (typeof value) {
    case "string":
      return escapeHtml(value);
    case "number":
    case "bigint":
    case "boolean":
      return escapeHtml(String(value));
    default:
      // Only reached from untyped code: better a clear throw than "[object Object]" on a page.
      throw new TypeError(
        `html cannot insert a value of type ${typeof value}: format it as text first`,
      );
  }
}

/**
 * Writes a piece of HTML, escaping every `${}` value as text (see {@link HtmlValue}), so
 * `` html`<p>${name}</p>` `` is safe whatever `name` holds. Escaping makes a value safe in
 * element content and in a *quoted* attribute (`title="${t}"`), never in an unquoted one; a URL
 * in `href` or `src` still needs its scheme checked (`javascript:` escapes to itself), and
 * `<script>` or `<style>` content needs its own encoding.
 *
 * ```ts
 * import { html } from "@tessera/core";
 *
 * const items = ["Tom & Jerry", "<b>"];
 * const page = html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>`;
 * page.toString(); // <ul><li>Tom &amp; Jerry</li><li>&lt;b&gt;</li></ul>
 * ```
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let markup = strings[0]!;
  values.forEach((value, index) => {
    markup += markupOf(value) + strings[index + 1]!;
  });
  return trust(markup);
}

/**
 * The items as one piece of HTML with `separator` (text, escaped) between them, each item by
 * `html`'s rules: `joinHtml(links, " ")` for what `array.join(" ")` did to strings. An item that
 * gives nothing (`false`, `null`, an empty array) still gets its separators.
 */
export function joinHtml(items: readonly HtmlValue[], separator: string): SafeHtml {
  return trust(items.map(markupOf).join(escapeHtml(separator)));
}

/**
 * Trusts `markup` as HTML, unescaped: the one way to insert raw markup, so every place that does
 * can be found and reviewed. Only for markup already made safe for where it goes (a sanitizer's
 * output, a JSON escaped for a `<script>`, a constant), never for text that came from a request.
 */
export function unsafeHtml(markup: string): SafeHtml {
  return trust(markup);
}
