/** PostgreSQL's type id of BIGINT (int8). */
export const INT8 = 20;

/**
 * A BIGINT's text as a number while exact, else a bigint: ids, counts and epoch milliseconds
 * read as numbers, where drivers would give a string or always a bigint.
 */
export function parseInt8(text: string): number | bigint {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
}
