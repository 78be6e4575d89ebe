import type { Arbitrary } from "fast-check";
import fc from "fast-check";
import type { AnswerKind } from "./answer-shape.js";
import { type CaseParts, caseOf } from "./case-builders.js";
import { queryOf } from "./fuzz-bodies.js";
import type { FuzzCase } from "./fuzz-case.js";
import { sessionHeaders } from "./fuzz-headers.js";

/** One route: as the app declares it (`POST /api/posts/:id`), its kind of answers, its cases. */
export interface FuzzedRoute {
  readonly route: string;
  readonly kind: AnswerKind;
  readonly cases: Arbitrary<FuzzCase>;
}

/** The route `route` (`METHOD /template`), answering `kind`, with cases made of `parts`. */
export function fuzzed(route: string, kind: AnswerKind, parts: CaseParts): FuzzedRoute {
  return { route, kind, cases: caseOf(route, parts) };
}

/** A page route, sent with the signed-in session mostly (see `sessionHeaders`). */
export function page(route: string, parts: Omit<CaseParts, "headers">): FuzzedRoute {
  return fuzzed(route, "page", { headers: sessionHeaders, ...parts });
}

/** A query a page or a health check ignores, with a remembered page among its keys. */
export const ignoredQuery = queryOf({
  return_to: fc.constantFrom("/account", "//evil.example", "https://evil.example"),
});

/** What a client may put where a number goes in a query. */
const numberish = fc.constantFrom(
  "1",
  "50",
  "100",
  "0",
  "101",
  "-1",
  "1e3",
  "01",
  " 1",
  "1.5",
  "",
  "abc",
  "99999999999999999999",
);
/** A list's paging query: `limit`, `offset` and `after`, numbers or not. */
export const listQuery = queryOf({ limit: numberish, offset: numberish, after: numberish });
