import type { Route } from "@tessera/http";
import type { KeySet } from "./keys/key-set.js";

/** The path of the public key set, where OpenID Connect and most JWT libraries look. */
export const JWKS_PATH = "/.well-known/jwks.json";

/**
 * How long others may keep the set: 5 minutes. A new key is published when it starts signing,
 * so a verifier holding an older copy meets an unknown `kid` and fetches again (jose does);
 * a replaced key stays in the set for a token lifetime, far longer than any cached copy.
 */
export const JWKS_MAX_AGE_SECONDS = 300;

/**
 * `GET /.well-known/jwks.json`: the public keys that verify now, with `Cache-Control: public,
 * max-age=300` (or `maxAgeSeconds`). Public by design: it needs no authentication.
 */
export function jwksRoute(
  keys: KeySet,
  options: { readonly maxAgeSeconds?: number | undefined } = {},
): Route {
  const maxAge = options.maxAgeSeconds ?? JWKS_MAX_AGE_SECONDS;
  if (!Number.isSafeInteger(maxAge) || maxAge < 0) {
    throw new RangeError("maxAgeSeconds must be a non-negative integer");
  }
  return {
    method: "GET",
    path: JWKS_PATH,
    async handle() {
      return Response.json(await keys.publicJwks(), {
        headers: { "Cache-Control": `public, max-age=${maxAge}` },
      });
    },
  };
}
