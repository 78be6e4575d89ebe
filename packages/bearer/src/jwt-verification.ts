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

/** The longest a token acting for someone else (with `act`) lasts: one hour. */
export const ACTING_JWT_LIFETIME_SECONDS = 3600;

/** Most factors an `amr` claim lists: a first and a second factor, and a spare. */
export const MAXIMUM_AMR_FACTORS = 3;
const FACTOR_NAME = /^[a-z_]{1,32}$/;
// An actor as `act.sub`: the id of a user, as `sub` holds one.
const ACTOR_ID = /^[1-9][0-9]{0,15}$/;

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
 * (seconds), and `act` when someone acts for the user; none without one.
 * @throws {RangeError} for factors that are not 1 to 3 lower-case names, or an actor that is
 * not a user id.
 */
export function signInClaims(
  issuedAt: number,
  authentication: SignInAuthentication | undefined,
): { auth_time?: number; amr?: string[]; act?: { sub: string } } {
  if (!authentication) return {};
  if (!isFactorList(authentication.factors)) {
    throw new RangeError("sign-in factors must be 1 to 3 lower-case names");
  }
  const { actor } = authentication;
  if (actor !== undefined && !ACTOR_ID.test(actor)) {
    throw new RangeError("an actor must be a user id");
  }
  return {
    auth_time: Math.min(issuedAt, Math.floor(authentication.at / 1000)),
    amr: [...authentication.factors],
    ...(actor === undefined ? {} : { act: { sub: actor } }),
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

/**
 * jose's checks of every Tessera token: one of `algorithms`, `sub`, `iat` and `exp` present,
 * the expected `iss` and `aud`, and the expiry against `now` (epoch ms). No clock tolerance:
 * the tokens' lifetime is an hour, and the clocks involved are seconds apart.
 */
export function joseVerifyOptions(
  algorithms: string[],
  expected: ExpectedClaims,
  now: number,
): {
  algorithms: string[];
  requiredClaims: string[];
  issuer?: string;
  audience?: string;
  currentDate: Date;
} {
  return {
    algorithms,
    requiredClaims: ["sub", "iat", "exp"],
    ...(expected.iss === undefined ? {} : { issuer: expected.iss }),
    ...(expected.aud === undefined ? {} : { audience: expected.aud }),
    currentDate: new Date(now),
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
 * whole number of seconds no later than `iat`, and `act` only beside them, naming a user id,
 * on a token of at most {@link ACTING_JWT_LIFETIME_SECONDS}. Anything else in a token we signed
 * is a fault, refused like any other bad claim.
 */
function readAuthentication(payload: JWTPayload): SignInAuthentication | undefined | "invalid" {
  const { auth_time: authTime, amr, act } = payload;
  if (authTime === undefined && amr === undefined) return act === undefined ? undefined : "invalid";
  if (
    typeof authTime !== "number" ||
    !Number.isSafeInteger(authTime) ||
    authTime < 0 ||
    authTime > (payload.iat ?? 0) ||
    !isFactorList(amr)
  ) {
    return "invalid";
  }
  if (act === undefined) return { at: authTime * 1000, factors: amr };
  const actor = readActor(act);
  const lifetime = (payload.exp ?? 0) - (payload.iat ?? 0);
  if (actor === undefined || lifetime > ACTING_JWT_LIFETIME_SECONDS) return "invalid";
  return { at: authTime * 1000, factors: amr, actor };
}

/** The actor an `act` claim names: an object with just `sub`, a user id. */
function readActor(act: unknown): string | undefined {
  if (typeof act !== "object" || act === null || Array.isArray(act)) return undefined;
  const keys = Object.keys(act);
  const sub = (act as { sub?: unknown }).sub;
  if (keys.length !== 1 || typeof sub !== "string" || !ACTOR_ID.test(sub)) return undefined;
  return sub;
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
  const lifetimeSeconds =
    authentication?.actor === undefined
      ? options.lifetimeSeconds
      : Math.min(options.lifetimeSeconds, ACTING_JWT_LIFETIME_SECONDS);
  const { SignJWT } = await loadJose();
  const token = await new SignJWT(claims)
    .setProtectedHeader({ ...signing.header, typ: "JWT" })
    .setSubject(subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + lifetimeSeconds)
    .sign(signing.key);
  return { token, expiresIn: lifetimeSeconds };
}
