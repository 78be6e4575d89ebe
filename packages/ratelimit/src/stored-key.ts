import { sha256Hex } from "@tessera/crypto";

/** Longest key a limiter hands its store: longer ones are replaced by their SHA-256 digest. */
export const MAXIMUM_STORED_KEY_LENGTH = 256;

/**
 * The store key of a group and a client: their JSON pair, which keeps `("a:b", "c")` apart from
 * `("a", "b:c")`; or, when that is longer than {@link MAXIMUM_STORED_KEY_LENGTH}, `sha256:` and
 * the pair's hex digest, so a client a stranger chooses (a submitted email of any length) costs
 * the store a bounded row. A digest never equals a pair, which starts with `[`.
 */
export function storedRateLimitKey(group: string, client: string): string {
  const pair = JSON.stringify([group, client]);
  return pair.length <= MAXIMUM_STORED_KEY_LENGTH ? pair : `sha256:${sha256Hex(pair)}`;
}
