// Builders of whole fuzz cases: paths from route templates, ids, and the case itself with its
// client address, credentials, payload and the odd hostile header.
import fc, { type Arbitrary } from "fast-check";
import type { Payload } from "./fuzz-bodies.js";
import { type FuzzCase, readable } from "./fuzz-case.js";
import { crossSiteHeaders, type Header } from "./fuzz-headers.js";
import { hostileHeaders } from "./hostile-input.js";
import { mostly, seldomOtherwise } from "./weighted-choice.js";

/**
 * The path of a route template: each `:param` from `params`, a query after it. The parts are
 * used as written (already percent-encoded).
 */
export function pathOf(
  template: string,
  params: Readonly<Record<string, Arbitrary<string>>> = {},
  query: Arbitrary<string> = fc.constant(""),
): Arbitrary<string> {
  const pieces = template.split("/").map((piece) => {
    if (!piece.startsWith(":")) return fc.constant(piece);
    const value = params[piece.slice(1)];
    if (!value) throw new Error(`no values for ${piece} of ${template}`);
    return value;
  });
  return fc.tuple(fc.tuple(...pieces), query).map(([parts, search]) => parts.join("/") + search);
}

/** What a route's cases are made of; the method defaults to the route's own. */
export interface CaseParts {
  readonly method?: Arbitrary<string>;
  readonly path: Arbitrary<string>;
  readonly headers?: Arbitrary<Header[]>;
  readonly payload?: Arbitrary<Payload>;
}

/**
 * A whole case for `route` (`METHOD /template`): the client address first, then the route's
 * headers and payload, and now and then a cross-site attempt and odd extra headers.
 */
export function caseOf(route: string, parts: CaseParts): Arbitrary<FuzzCase> {
  return fc
    .tuple(
      parts.method ?? fc.constant(route.split(" ")[0]!),
      parts.path,
      parts.headers ?? fc.constant<Header[]>([]),
      parts.payload ?? fc.constant(undefined),
      crossSiteHeaders,
      seldomOtherwise(fc.constant<Header[]>([]), hostileHeaders),
    )
    .map(([method, path, headers, payload, crossSite, odd]) =>
      readable({
        route,
        method,
        path,
        headers: [
          ["x-forwarded-for", "{client}"],
          ...headers,
          ...(payload?.headers ?? []),
          ...crossSite,
          ...odd,
        ],
        ...(payload?.body ? { body: payload.body } : {}),
      }),
    );
}

/**
 * An id in a path: mostly the first of `known` (placeholders of fixtures), sometimes another
 * or a hostile segment.
 */
export function idIn(known: readonly string[], hostile: Arbitrary<string>): Arbitrary<string> {
  const [first, ...others] = known;
  if (first === undefined) return hostile;
  return mostly(fc.constant(first), ...others.map((other) => fc.constant(other)), hostile);
}
