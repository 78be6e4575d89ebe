import type { AsymmetricJwtAlgorithm } from "../jwt-algorithm.js";
import { type PrivateSigningJwk, publicPart } from "./signing-key.js";

/** A public key as served at `/.well-known/jwks.json`. */
export interface PublicJwk {
  readonly kty: string;
  readonly crv: string;
  readonly x: string;
  readonly y?: string;
  readonly kid: string;
  readonly alg: AsymmetricJwtAlgorithm;
  readonly use: "sig";
}

/** A JWK set (RFC 7517 §5) of public keys. */
export interface PublicJwks {
  readonly keys: readonly PublicJwk[];
}

/**
 * The public JWK set of `keys`: each key's `kty`, `crv`, `x` (and `y`), `kid`, `alg` and
 * `use: "sig"`, built member by member, so no private member (`d`) can reach it.
 */
export function publicJwks(keys: readonly PrivateSigningJwk[]): PublicJwks {
  return {
    keys: keys.map((key) => ({ ...publicPart(key), kid: key.kid, alg: key.alg, use: "sig" })),
  };
}
