import { type Clock, fail, type Result, systemClock } from "@tessera/core";
import type { JWTVerifyGetKey } from "jose";
import type { JwtFailure, JwtVerifier, VerifiedJwt } from "./jwt.js";
import { ASYMMETRIC_JWT_ALGORITHMS, type AsymmetricJwtAlgorithm } from "./jwt-algorithm.js";
import {
  classifyJoseError,
  expectedClaims,
  isCanonicalCompactJws,
  joseVerifyOptions,
  loadJose,
  verifiedPayload,
} from "./jwt-verification.js";

/** Options for {@link remoteJwtVerifier}. */
export interface RemoteJwtVerifierOptions {
  /** The issuing app's key set: `https://app.example/.well-known/jwks.json`. */
  readonly jwksUrl: string | URL;
  /** The `iss` its tokens carry (its `APP_URL`): required. */
  readonly issuer: string;
  /** The `aud` its tokens carry (`JWT_AUDIENCE`), when it sets one: then required. */
  readonly audience?: string | undefined;
  /** Defaults to EdDSA and ES256; each key verifies only tokens of its own `alg`. */
  readonly algorithms?: readonly AsymmetricJwtAlgorithm[] | undefined;
  readonly clock?: Clock | undefined;
  /** How long the fetched set is used before it is fetched again: jose's default, 10 minutes. */
  readonly cacheMaxAgeMs?: number | undefined;
  /** The least time between two fetches for unknown kids: jose's default, 30 seconds. */
  readonly cooldownMs?: number | undefined;
}

/**
 * Verifies an app's EdDSA/ES256 tokens in another service, with the public keys its
 * `/.well-known/jwks.json` serves: jose's `createRemoteJWKSet`, which keeps the set in memory
 * and fetches it again on a `kid` it does not hold (at most once per cooldown). Never throws on
 * a token; a key set that cannot be fetched or read throws (broken infrastructure).
 */
export function remoteJwtVerifier(options: RemoteJwtVerifierOptions): JwtVerifier {
  if (typeof options.issuer !== "string" || options.issuer === "") {
    throw new RangeError("a remote JWT verifier needs the issuer its tokens carry");
  }
  const url = new URL(options.jwksUrl);
  const algorithms = [...(options.algorithms ?? ASYMMETRIC_JWT_ALGORITHMS)];
  const clock = options.clock ?? systemClock;
  const claimsExpected = expectedClaims(options);
  let keySet: Promise<JWTVerifyGetKey> | undefined;
  const remoteKeys = () => {
    keySet ??= loadJose().then(({ createRemoteJWKSet }) =>
      createRemoteJWKSet(url, {
        ...(options.cacheMaxAgeMs === undefined ? {} : { cacheMaxAge: options.cacheMaxAgeMs }),
        ...(options.cooldownMs === undefined ? {} : { cooldownDuration: options.cooldownMs }),
      }),
    );
    return keySet;
  };
  return {
    async verify(token): Promise<Result<VerifiedJwt, JwtFailure>> {
      if (!isCanonicalCompactJws(token)) return fail("malformed-token");
      const { decodeProtectedHeader, errors, jwtVerify } = await loadJose();
      try {
        if (typeof decodeProtectedHeader(token).kid !== "string") return fail("unknown-key");
      } catch {
        return fail("malformed-token");
      }
      try {
        const { payload } = await jwtVerify(
          token,
          await remoteKeys(),
          joseVerifyOptions([...algorithms], claimsExpected, clock()),
        );
        return verifiedPayload(payload);
      } catch (error) {
        return fail(classifyJoseError(error, errors));
      }
    },
  };
}
