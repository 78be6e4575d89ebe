/** Plain decimal digits without a leading zero, at most 16 of them. */
const ROW_ID = /^[1-9][0-9]{0,15}$/;

/**
 * A row id read from a path segment (`/api/posts/{id}`) or a token's subject, or undefined when
 * the text cannot be one: not plain digits, zero, or above 2^53 - 1, past which a number no
 * longer holds every integer (`9999999999999999` would be read as 1e16, another row's id).
 */
export function pathId(text: string | undefined): number | undefined {
  if (text === undefined || !ROW_ID.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}
