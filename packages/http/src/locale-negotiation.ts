import { ENGLISH, type Locale, type MessageCatalog } from "@tessera/core";
import { addLanguageHeaders } from "./language-headers.js";
import { editResponseHeaders } from "./response-headers.js";
import type { PassThroughMiddleware } from "./route-middleware.js";
import { answerLanguage } from "./secured-responses.js";

// Our own reading of Accept-Language rather than `negotiator` or @formatjs/intl-localematcher:
// the header is attacker-controlled and read on every request, so it is cut at a fixed size
// before it is split, and matching an app's two or three catalogs is a prefix comparison.

/** Longest Accept-Language read; browsers send well under 100 characters. */
const MAXIMUM_HEADER_LENGTH = 512;
/** Most language ranges weighed; the rest of a longer list is ignored. */
const MAXIMUM_RANGES = 16;
const RANGE = /^([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)$/;
const QUALITY = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

/**
 * The tag of `available` that best matches an `Accept-Language` header, or undefined when none
 * does (then answer in English). Ranges are tried by quality, then in the order written; a
 * range matches a tag equal to it or to one of its prefixes (`fr-CA` matches `fr`), case
 * aside. `*` and `q=0` ranges never choose a language.
 */
export function negotiateLocale(
  header: string | null,
  available: readonly string[],
): string | undefined {
  if (!header || available.length === 0) return undefined;
  const ranges: { readonly range: string; readonly quality: number }[] = [];
  for (const part of header.slice(0, MAXIMUM_HEADER_LENGTH).split(",", MAXIMUM_RANGES)) {
    const [range = "", ...parameters] = part.split(";").map((piece) => piece.trim());
    if (!RANGE.test(range) || range === "*") continue;
    const qualityText = parameters.map((parameter) => QUALITY.exec(parameter)?.[1]).find(Boolean);
    const quality = qualityText === undefined ? 1 : Number(qualityText);
    if (quality > 0) ranges.push({ range: range.toLowerCase(), quality });
  }
  ranges.sort((a, b) => b.quality - a.quality);
  for (const { range } of ranges) {
    const found = matchRange(range, available);
    if (found !== undefined) return found;
  }
  return undefined;
}

function matchRange(range: string, available: readonly string[]): string | undefined {
  // RFC 4647 lookup: `fr-ca` looks for `fr-ca`, then `fr`.
  for (let candidate = range; candidate !== ""; ) {
    const found = available.find((tag) => tag.toLowerCase() === candidate);
    if (found !== undefined) return found;
    const cut = candidate.lastIndexOf("-");
    candidate = cut === -1 ? "" : candidate.slice(0, cut);
  }
  return undefined;
}

/** Options of {@link localeNegotiation}. */
export interface LocaleNegotiationOptions {
  /**
   * Catalogs by language tag (`{ fr: french }`), besides English, which every package carries
   * and which answers any other language.
   */
  readonly catalogs: Readonly<Record<string, MessageCatalog>>;
}

/**
 * The chooser of each request's {@link Locale} from its `Accept-Language`, among `catalogs`
 * (English otherwise): for answers written outside routes (an app's home page, its 404 and 500).
 */
export function localeChooser(options: LocaleNegotiationOptions): (request: Request) => Locale {
  // English is a language the client may prefer too: `en-US,fr;q=0.9` is answered in English,
  // not in the one catalog the app ships.
  const locales = new Map<string, Locale>([
    [ENGLISH.tag, ENGLISH],
    ...Object.entries(options.catalogs).map(([tag, catalog]): [string, Locale] => [
      tag,
      { tag, catalog },
    ]),
  ]);
  const tags = [...locales.keys()];
  return (request) => {
    const tag = negotiateLocale(request.headers.get("accept-language"), tags);
    return (tag === undefined ? undefined : locales.get(tag)) ?? ENGLISH;
  };
}

/**
 * `response` saying it was written in `locale` (`Content-Language`, unless it says already)
 * and chosen by `Accept-Language` (`Vary`), so a cache keeps one copy per language.
 */
export function withLanguageHeaders(response: Response, locale: Locale): Response {
  // Made with both in its init (jsonAnswer's `locale`): reading its headers would only cost.
  if (answerLanguage(response) === locale.tag) return response;
  return editResponseHeaders(response, (headers) => addLanguageHeaders(headers, locale.tag));
}

/**
 * A middleware choosing each request's {@link Locale} from its `Accept-Language` and putting it
 * in `context.locale`, which every Tessera route writes its messages in (English without it).
 * Every answer carries {@link withLanguageHeaders}. Mount it outermost, so that refusals of
 * later middleware are translated.
 *
 * @example
 * ```ts
 * import { localeNegotiation, type Route, withMiddleware } from "@tessera/http";
 *
 * const routes: Route[] = [];
 * const french = { "http.not_found": "Introuvable" };
 * const translated = withMiddleware(routes, localeNegotiation({ catalogs: { fr: french } }));
 * ```
 */
export function localeNegotiation(options: LocaleNegotiationOptions): PassThroughMiddleware {
  const localeOf = localeChooser(options);
  return (next) => async (request, context) => {
    const locale = localeOf(request);
    return withLanguageHeaders(await next(request, { ...context, locale }), locale);
  };
}
