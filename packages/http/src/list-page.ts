import { fail, ok, type Result } from "@tessera/core";

/** One page of a listing, newest first. */
export interface ListPage {
  readonly limit: number;
  readonly offset: number;
  /**
   * Keyset paging: only rows whose id is below this one (the last id of the page before).
   * Unlike `offset` it costs the same at any depth, and a row added meanwhile shifts nothing.
   */
  readonly after?: number | undefined;
}

/** Records per page when `limit` is not given. */
export const DEFAULT_LIST_LIMIT = 50;
/** Largest `limit` accepted. */
export const MAXIMUM_LIST_LIMIT = 100;
/** The 400 message of a `limit` outside 1–100 or not an integer. */
export const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAXIMUM_LIST_LIMIT}`;
/** The 400 message of an `offset` that is negative or not an integer. */
export const OFFSET_MESSAGE = "offset must be an integer of 0 or more";
/** The 400 message of an `after` that is not an id. */
export const AFTER_MESSAGE = "after must be an integer of 1 or more";
/** The 400 message of a listing given both `offset` and `after`. */
export const OFFSET_AND_AFTER_MESSAGE = "give offset or after, not both";

const DIGITS = /^[0-9]{1,16}$/;

/**
 * Reads a listing's `?limit=&offset=` (defaults 50 and 0) or `?limit=&after=<id>`. Only plain
 * decimal digits are numbers here: a value given but empty, signed, fractional, in exponent or
 * hex notation, or out of range is refused with the message to send as a 400, so no odd value
 * reaches SQL.
 */
export function readListPage(url: URL): Result<ListPage, string> {
  const limitText = url.searchParams.get("limit");
  const offsetText = url.searchParams.get("offset");
  const afterText = url.searchParams.get("after");
  const limit = limitText === null ? DEFAULT_LIST_LIMIT : wholeNumber(limitText);
  if (limit === undefined || limit < 1 || limit > MAXIMUM_LIST_LIMIT) return fail(LIMIT_MESSAGE);
  const offset = offsetText === null ? 0 : wholeNumber(offsetText);
  if (offset === undefined) return fail(OFFSET_MESSAGE);
  if (afterText === null) return ok({ limit, offset });
  const after = wholeNumber(afterText);
  if (after === undefined || after < 1) return fail(AFTER_MESSAGE);
  if (offsetText !== null) return fail(OFFSET_AND_AFTER_MESSAGE);
  return ok({ limit, offset: 0, after });
}

/**
 * Reads one page through `list` (a store's listing), asking it for one row more than shown to
 * learn whether a next page exists. When one does, the headers hold
 * `Link: </path?limit=N&after=<last id>>; rel="next"`: relative to the request, so it stays
 * right behind a proxy, and keyset-paged whatever this page used; the request's other query
 * parameters (a listing's filters) follow the paging ones.
 */
export async function loadListPage<Row extends { readonly id?: unknown }>(
  url: URL,
  page: ListPage,
  list: (page: ListPage) => Promise<readonly Row[]>,
): Promise<{
  readonly rows: Row[];
  readonly headers: Record<string, string>;
  /** The next page's path and query (what the `Link` names), for a page's "older" link. */
  readonly next?: string;
}> {
  const rows = await list({ ...page, limit: page.limit + 1 });
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  if (rows.length <= page.limit || last === undefined) return { rows: shown, headers: {} };
  // The listing's own filters (`query`, `type` …) stay; only the paging changes.
  const search = new URLSearchParams(url.search);
  for (const name of ["limit", "offset", "after"]) search.delete(name);
  const rest = search.toString();
  const filters = rest === "" ? "" : `&${rest}`;
  const next = `${url.pathname}?limit=${page.limit}&after=${String(last.id)}${filters}`;
  return { rows: shown, headers: { link: `<${next}>; rel="next"` }, next };
}

function wholeNumber(text: string): number | undefined {
  if (!DIGITS.test(text)) return undefined;
  const number = Number(text);
  return Number.isSafeInteger(number) ? number : undefined;
}
