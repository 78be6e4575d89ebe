import { fail, ok, type Result } from "@tessera/core";

/** One page of a listing. */
export interface ListPage {
  readonly limit: number;
  readonly offset: number;
}

/** Records per page when `limit` is not given. */
export const DEFAULT_LIST_LIMIT = 50;
/** Largest `limit` accepted. */
export const MAXIMUM_LIST_LIMIT = 100;
/** The 400 message of a `limit` outside 1–100 or not an integer. */
export const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAXIMUM_LIST_LIMIT}`;
/** The 400 message of an `offset` that is negative or not an integer. */
export const OFFSET_MESSAGE = "offset must be an integer of 0 or more";

const DIGITS = /^[0-9]{1,16}$/;

/**
 * Reads a listing's `?limit=&offset=` (defaults 50 and 0). Only plain decimal digits are
 * numbers here: a value given but empty, signed, fractional, in exponent or hex notation, or
 * out of range is refused with the message to send as a 400, so no odd value reaches SQL.
 */
export function readListPage(url: URL): Result<ListPage, string> {
  const limitText = url.searchParams.get("limit");
  const offsetText = url.searchParams.get("offset");
  const limit = limitText === null ? DEFAULT_LIST_LIMIT : wholeNumber(limitText);
  if (limit === undefined || limit < 1 || limit > MAXIMUM_LIST_LIMIT) return fail(LIMIT_MESSAGE);
  const offset = offsetText === null ? 0 : wholeNumber(offsetText);
  if (offset === undefined) return fail(OFFSET_MESSAGE);
  return ok({ limit, offset });
}

function wholeNumber(text: string): number | undefined {
  if (!DIGITS.test(text)) return undefined;
  const number = Number(text);
  return Number.isSafeInteger(number) ? number : undefined;
}
