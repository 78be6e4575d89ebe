import { type AsymmetricJwtAlgorithm, isAsymmetricJwtAlgorithm } from "../jwt-algorithm.js";
import { loadJose } from "../jwt-verification.js";

/**
 * A private signing key as a JWK (RFC 7517): an Ed25519 key (`kty: "OKP"`) for EdDSA or a
 * P-256 key (`kty: "EC"`) for ES256, with the `kid` tokens name it by and its `alg`.
 */
export interface PrivateSigningJwk {
  readonly kty: "OKP" | "EC";
  readonly crv: "Ed25519" | "P-256";
  readonly x: string;
  /** The P-256 key's second coordinate; absent on Ed25519 keys. */
  readonly y?: string;
  /** The private part: never served, stored only sealed. */
  readonly d: string;
  readonly kid: string;
  readonly alg: AsymmetricJwtAlgorithm;
}

const CURVES = {
  EdDSA: { kty: "OKP", crv: "Ed25519" },
  ES256: { kty: "EC", crv: "P-256" },
} as const;

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const KID = /^[\x21-\x7e]{1,128}$/;

/**
 * A new private key for `alg` (jose's `generateKeyPair`, exported as a JWK), its `kid` the
 * RFC 7638 thumbprint of its public part: 43 URL-safe characters, the same for the same key
 * wherever it is computed.
 */
export async function generateSigningKey(alg: AsymmetricJwtAlgorithm): Promise<PrivateSigningJwk> {
  if (!isAsymmetricJwtAlgorithm(alg)) throw new RangeError(`not a signing algorithm: ${alg}`);
  const { calculateJwkThumbprint, exportJWK, generateKeyPair } = await loadJose();
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(publicPart(jwk as PrivateSigningJwk));
  return readPrivateSigningJwk({ ...jwk, kid, alg });
}

/**
 * `value` as a {@link PrivateSigningJwk}, holding only the members one needs: a key from
 * `JWT_PRIVATE_KEYS` or from a store.
 * @throws {RangeError} when it is not an Ed25519 (EdDSA) or P-256 (ES256) private key with a
 * `kid` and an `alg` that fit it; the message never holds the key.
 */
export function readPrivateSigningJwk(value: unknown): PrivateSigningJwk {
  if (typeof value !== "object" || value === null) throw new RangeError("a JWK must be an object");
  const jwk = value as Record<string, unknown>;
  const { alg, kid } = jwk;
  if (!isAsymmetricJwtAlgorithm(alg))
    throw new RangeError('a JWK\'s alg must be "EdDSA" or "ES256"');
  if (typeof kid !== "string" || !KID.test(kid)) {
    throw new RangeError("a JWK needs a kid of 1 to 128 printable ASCII characters");
  }
  const curve = CURVES[alg];
  const needed = alg === "ES256" ? ["x", "y", "d"] : ["x", "d"];
  if (jwk.kty !== curve.kty || jwk.crv !== curve.crv) {
    throw new RangeError(`JWK ${kid}: ${alg} needs kty ${curve.kty} and crv ${curve.crv}`);
  }
  for (const member of needed) {
    const text = jwk[member];
    if (typeof text !== "string" || !BASE64URL.test(text)) {
      throw new RangeError(`JWK ${kid}: "${member}" must be base64url text`);
    }
  }
  return {
    kty: curve.kty,
    crv: curve.crv,
    x: jwk.x as string,
    ...(alg === "ES256" ? { y: jwk.y as string } : {}),
    d: jwk.d as string,
    kid,
    alg,
  };
}

/** The public members of a key: `kty`, `crv`, `x` and, on P-256, `y`. Never `d`. */
export function publicPart(jwk: PrivateSigningJwk): {
  kty: string;
  crv: string;
  x: string;
  y?: string;
} {
  return {
    kty: jwk.kty,
    crv: jwk.crv,
    x: jwk.x,
    ...(jwk.y === undefined ? {} : { y: jwk.y }),
  };
}
