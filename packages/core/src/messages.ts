// Plain catalogs (id → template with `{name}` holes), not ICU MessageFormat through
// @formatjs/intl or i18next: every message a Tessera package writes is a sentence with at most
// three values put in it, none of which needs plural or gender selection, and a catalog that is
// a plain object is data a translator can read, that TypeScript checks for completeness, and
// that costs nothing to load on any runtime (@formatjs/intl is ~60 kB and i18next ~40 kB
// minified, each with its own loading and fallback machinery that apps then have to configure).

/** Values a message template names in braces: `{maximum}` in `is too long (maximum is {maximum} characters)`. */
export type MessageParams = Readonly<Record<string, string | number>>;

/**
 * One language's messages by id. Ids it lacks fall back to English, so a translation can be
 * partial while it is written; `satisfies Record<MessageIdOf<…>, string>` makes one complete.
 */
export type MessageCatalog = Readonly<Record<string, string | undefined>>;

/** The language a request is answered in: its BCP 47 tag (`fr`) and its catalog. */
export interface Locale {
  readonly tag: string;
  readonly catalog: MessageCatalog;
}

/** English, the default locale: every package's own templates, the spec's exact strings. */
export const ENGLISH: Locale = Object.freeze({ tag: "en", catalog: Object.freeze({}) });

/** One package's messages: its English templates, and their text in any locale. */
export interface Messages<Id extends string> {
  /** The English template of each id: the default, and the list a translation must cover. */
  readonly english: Readonly<Record<Id, string>>;
  /**
   * Message `id` in `locale` (English when no locale is given or its catalog lacks the id),
   * with each `{name}` replaced by `params[name]`. Plain text: escape it where it goes in HTML.
   */
  text(locale: Locale | undefined, id: Id, params?: MessageParams): string;
}

/** The ids of a {@link Messages}: `MessageIdOf<typeof accountMessages>`. */
export type MessageIdOf<M> = M extends Messages<infer Id> ? Id : never;

const HOLE = /\{(\w+)\}/g;

/** Fills a template's `{name}` holes; a hole with no such parameter stays as written. */
export function fillTemplate(template: string, params: MessageParams | undefined): string {
  if (params === undefined || !template.includes("{")) return template;
  return template.replace(HOLE, (hole, name: string) => {
    const value = params[name];
    return value === undefined ? hole : String(value);
  });
}

/**
 * A package's {@link Messages} from its English templates. Ids are namespaced by package
 * (`accounts.invalid_credentials`), so one catalog per language serves every package.
 *
 * @example
 * ```ts
 * import { defineMessages } from "@tessera/core";
 *
 * const greetings = defineMessages({ "demo.hello": "Hello, {name}" });
 * greetings.text({ tag: "fr", catalog: { "demo.hello": "Bonjour, {name}" } }, "demo.hello", { name: "Ada" });
 * // "Bonjour, Ada"
 * ```
 */
export function defineMessages<const Id extends string>(
  english: Readonly<Record<Id, string>>,
): Messages<Id> {
  return {
    english,
    text(locale, id, params) {
      const template = locale?.catalog[id] ?? english[id];
      return fillTemplate(template, params);
    },
  };
}
