import { type Clock, fail, loadOnFirstUse, ok, type Result } from "@tessera/core";
import { decodeBase64url } from "@tessera/crypto";
import type { errors as JoseErrors, JWTPayload } from "jose";
import type { IssuedJwt, JwtFailure, SignInAuthentication, VerifiedJwt } from "./jwt.js";

// The checks every Tessera JWT goes through, whatever its algorithm: the canonical spelling
// before jose reads it, the claims after, and jose's errors as a JwtFailure.

/**
 * Tokens longer than this are refused unread. Ours are under 300 characters; the cap bounds
 * the decoding and JSON parsing a stranger can make us do before the signature check.
 */
export const MAXIMUM_JWT_LENGTH = 4096;

/** Most factors an `amr` claim lists: a first and a second factor, and a spare. */
export const MAXIMUM_AMR_FACTORS = 3;
const FACTOR_NAME = /^[a-z_]{1,32}$/;

/** Whether `value` is 1 to {@link MAXIMUM_AMR_FACTORS} factor names. */
export function isFactorList(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length >= 1 &&
    value.length <= MAXIMUM_AMR_FACTORS &&
    value.every((factor) => typeof factor === "string" && FACTOR_NAME.test(factor))
  );
}

/**
 * jose, imported by the first token issued or checked: it costs a process about 0.1 s of
 * start-up and 10 MiB.
 */
export const loadJose = loadOnFirstUse(() => import("jose"));

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * jose decodes base64url leniently: it accepts `=` padding and ignores the stray low bits of
 * the last character, so several texts carry one signature. Tokens are held to their single
 * canonical form, so a token that verifies has exactly one spelling.
 */
export function isCanonicalCompactJws(token: string): boolean {
  if (typeof token !== "string") return false;
  if (token.length > MAXIMUM_JWT_LENGTH || !COMPACT_JWS.test(token)) return false;
  try {
    for (const segment of token.split(".")) decodeBase64url(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * The `auth_time` and `amr` claims of a sign-in, `auth_time` no later than `issuedAt`
 * (seconds); none without one.
 * @throws {RangeError} for factors that are not 1 to 3 lower-case names.
 */
export function signInClaims(
  issuedAt: number,
  authentication: SignInAuthentication | undefined,
): { auth_time?: number; amr?: string[] } {
  if (!authentication) return {};
  if (!isFactorList(authentication.factors)) {
    throw new RangeError("sign-in factors must be 1 to 3 lower-case names");
  }
  return {
    auth_time: Math.min(issuedAt, Math.floor(authentication.at / 1000)),
    amr: [...authentication.factors],
  };
}

/** The `iss` and `aud` an issuer sets and a verifier requires, when configured. */
export interface ExpectedClaims {
  readonly iss?: string;
  readonly aud?: string;
}

/** The configured `issuer` and `audience` as claims; none when neither is set. */
export function expectedClaims(options: {
  readonly issuer?: string | undefined;
  readonly audience?: string | undefined;
}): ExpectedClaims {
  for (const value of [options.issuer, options.audience]) {
    if (value !== undefined && (typeof value !== "string" || value === "")) {
      throw new RangeError("a JWT issuer or audience must be non-empty text");
    }
  }
  return {
    ...(options.issuer === undefined ? {} : { iss: options.issuer }),
    ...(options.audience === undefined ? {} : { aud: options.audience }),
  };
}

/** jose's `issuer` and `audience` checks for the expected claims. */
export function verifyClaimOptions(expected: ExpectedClaims): {
  issuer?: string;
  audience?: string;
} {
  return {
    ...(expected.iss === undefined ? {} : { issuer: expected.iss }),
    ...(expected.aud === undefined ? {} : { audience: expected.aud }),
  };
}

/** What a payload jose has checked says, or `invalid-claims` for an empty `sub` or a bad sign-in. */
export function verifiedPayload(payload: JWTPayload): Result<VerifiedJwt, JwtFailure> {
  if (typeof payload.sub !== "string" || payload.sub === "") return fail("invalid-claims");
  const authentication = readAuthentication(payload);
  if (authentication === "invalid") return fail("invalid-claims");
  return ok({
    subject: payload.sub,
    expiresAt: payload.exp!,
    issuedAt: payload.iat!,
    authentication,
  });
}

/**
 * The sign-in a token's `auth_time` and `amr` claims describe: both or neither, `auth_time` a
 * whole number of seconds no later than `iat`. Anything else in a token we signed is a fault,
 * refused like any other bad claim.
 */
function readAuthentication(payload: JWTPayload): SignInAuthentication | undefined | "invalid" {
  const { auth_time: authTime, amr } = payload;
  if (authTime === undefined && amr === undefined) return undefined;
  if (
    typeof authTime !== "number" ||
    !Number.isSafeInteger(authTime) ||
    authTime < 0 ||
    authTime > (payload.iat ?? 0) ||
    !isFactorList(amr)
  ) {
    return "invalid";
  }
  return { at: authTime * 1000, factors: amr };
}

/**
 * jose's error about a token as a {@link JwtFailure}.
 * @throws anything that is not a JOSEError about the token: a fault of the platform, of this
 * code, or of fetching a remote key set, not of the token.
 */
export function classifyJoseError(error: unknown, errors: typeof JoseErrors): JwtFailure {
  if (!(error instanceof errors.JOSEError)) throw error;
  switch (error.code) {
    case errors.JWSSignatureVerificationFailed.code:
      return "bad-signature";
    case errors.JWTExpired.code:
      return "expired";
    case errors.JWTClaimValidationFailed.code:
      return "invalid-claims";
    case errors.JOSEAlgNotAllowed.code:
      return "algorithm-not-allowed";
    case errors.JWKSNoMatchingKey.code:
      return "unknown-key";
    case errors.JWKSTimeout.code:
    case errors.JWKSInvalid.code:
      throw error;
    default:
      // JWSInvalid, JWTInvalid (payload not a JSON object), JOSENotSupported (unknown `crit`).
      return "malformed-token";
  }
}

/** What {@link signJwt} signs with: the protected header's `alg` and `kid`, and the key. */
export interface JwtSigning {
  readonly header: { readonly alg: string; readonly kid?: string };
  readonly key: CryptoKey | Uint8Array;
}

/**
 * A token of `userId`, issued now by `clock`, valid `lifetimeSeconds`, with its sign-in
 * claims (`auth_time`, `amr`) and the issuer's own (`iss`, `aud`): what every issuer signs,
 * whatever its algorithm.
 */
export async function signJwt(
  userId: number | string,
  authentication: SignInAuthentication | undefined,
  options: {
    readonly clock: Clock;
    readonly lifetimeSeconds: number;
    readonly claims: ExpectedClaims;
  },
  signing: JwtSigning,
): Promise<IssuedJwt> {
  const subject = String(userId);
  if (subject === "") throw new RangeError("a JWT subject must not be empty");
  const issuedAt = Math.floor(options.clock() / 1000);
  const claims = { ...signInClaims(issuedAt, authentication), ...options.claims };
  const { SignJWT } = await loadJose();
  const token = await new SignJWT(claims)
    .setProtectedHeader({ ...signing.header, typ: "JWT" })
    .setSubject(subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + options.lifetimeSeconds)
    .sign(signing.key);
  return { token, expiresIn: options.lifetimeSeconds };
}
