import { fail, type Result, systemClock } from "@tessera/core";
import type { AsymmetricJwtIssuerOptions, JwtFailure, JwtIssuer, VerifiedJwt } from "./jwt.js";
import {
  classifyJoseError,
  expectedClaims,
  isCanonicalCompactJws,
  joseVerifyOptions,
  loadJose,
  signJwt,
  verifiedPayload,
} from "./jwt-verification.js";

/**
 * EdDSA or ES256 JWTs signed by the key set's current key, the header naming it by `kid`;
 * verified by the key that `kid` names, with that key's algorithm alone allowed, so an HS256
 * token "signed" with a public key as its secret is refused.
 */
export function createAsymmetricJwtIssuer(
  options: AsymmetricJwtIssuerOptions & { readonly lifetimeSeconds: number },
): JwtIssuer {
  const { keys, lifetimeSeconds } = options;
  if (!keys || typeof keys.signingKey !== "function") {
    throw new RangeError(`${options.algorithm} tokens need a key set (keys)`);
  }
  if (keys.algorithm !== options.algorithm) {
    throw new RangeError(`the key set makes ${keys.algorithm} keys, not ${options.algorithm}`);
  }
  const clock = options.clock ?? systemClock;
  const claimsExpected = expectedClaims(options);
  return {
    async issue(userId, authentication) {
      const current = await keys.signingKey();
      const signing = { header: { alg: current.alg, kid: current.kid }, key: current.privateKey };
      return signJwt(
        userId,
        authentication,
        { clock, lifetimeSeconds, claims: claimsExpected },
        signing,
      );
    },
    async verify(token): Promise<Result<VerifiedJwt, JwtFailure>> {
      if (!isCanonicalCompactJws(token)) return fail("malformed-token");
      const { decodeProtectedHeader, errors, jwtVerify } = await loadJose();
      let kid: unknown;
      try {
        kid = decodeProtectedHeader(token).kid;
      } catch {
        return fail("malformed-token");
      }
      if (typeof kid !== "string") return fail("unknown-key");
      const key = await keys.verificationKey(kid);
      if (!key) return fail("unknown-key");
      try {
        const { payload } = await jwtVerify(
          token,
          key.publicKey,
          joseVerifyOptions([key.alg], claimsExpected, clock()),
        );
        return verifiedPayload(payload);
      } catch (error) {
        return fail(classifyJoseError(error, errors));
      }
    },
  };
}
