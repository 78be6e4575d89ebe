import { type Clock, fail, loadOnFirstUse, ok, type Result, systemClock } from "@tessera/core";
import { decodeBase64url, deriveKeyRing, type KeyRing, type SecretKeyBase } from "@tessera/crypto";
import type { errors as JoseErrors } from "jose";

/** The JWT lifetime: 3600 seconds. */
export const JWT_LIFETIME_SECONDS = 3600;

/**
 * The label the JWT signing key is derived under from `SECRET_KEY_BASE`. No other key of
 * Tessera uses it, so a cookie key can never verify a JWT, nor a JWT key open a cookie.
 */
export const JWT_KEY_LABEL = "tessera jwt hs256";

/**
 * Tokens longer than this are refused unread. Ours are under 200 characters; the cap bounds
 * the decoding and JSON parsing a stranger can make us do before the MAC check.
 */
export const MAXIMUM_JWT_LENGTH = 4096;

/** Why {@link JwtVerifier.verify} refused a token. Log it; never tell the client which. */
export type JwtFailure =
  /** Not three canonical base64url segments, or a header or payload that is not a JSON object. */
  | "malformed-token"
  /** A header `alg` other than HS256, including `none`. */
  | "algorithm-not-allowed"
  /** Signed with no key of the ring. */
  | "bad-signature"
  /** `exp` is at or before now. */
  | "expired"
  /** `sub`, `iat` or `exp` missing or of the wrong type, `sub` empty, or `nbf` in the future. */
  | "invalid-claims";

/**
 * How the sign-in behind a token was made, as its `auth_time` and `amr` claims carry it: when
 * (epoch milliseconds, whole seconds) and with which factors, in order (`["password", "totp"]`).
 * Routes that change credentials read it to ask for a recent, full sign-in.
 */
export interface SignInAuthentication {
  readonly at: number;
  readonly factors: readonly string[];
}

/** What a valid token says. */
export interface VerifiedJwt {
  /** The `sub` claim: the user id as text, never empty. */
  readonly subject: string;
  /** The `exp` claim, in seconds since the epoch (not milliseconds like {@link Clock}). */
  readonly expiresAt: number;
  /** The `iat` claim, in seconds since the epoch: when the token was signed. */
  readonly issuedAt: number;
  /** The sign-in it was issued for; undefined for a token issued without one. */
  readonly authentication?: SignInAuthentication | undefined;
}

/** A freshly signed token and its lifetime: the `token` and `expires_in` of `POST /api/auth/token`. */
export interface IssuedJwt {
  readonly token: string;
  readonly expiresIn: number;
}

/** Checks tokens. Never throws on the token, whatever it holds. */
export interface JwtVerifier {
  verify(token: string): Promise<Result<VerifiedJwt, JwtFailure>>;
}

/** Signs tokens with the current key and verifies them under every key of the ring. */
export interface JwtIssuer extends JwtVerifier {
  /**
   * Signs a token whose `sub` is the user id as text; with `authentication`, its `auth_time`
   * and `amr` claims say when and how the user signed in.
   * @throws {RangeError} for an empty subject, or factors that are not 1 to
   * {@link MAXIMUM_AMR_FACTORS} names of lower-case letters and underscores.
   */
  issue(userId: number | string, authentication?: SignInAuthentication): Promise<IssuedJwt>;
}

/** Most factors an `amr` claim lists: a first and a second factor, and a spare. */
export const MAXIMUM_AMR_FACTORS = 3;
const FACTOR_NAME = /^[a-z_]{1,32}$/;

function isFactorList(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length >= 1 &&
    value.length <= MAXIMUM_AMR_FACTORS &&
    value.every((factor) => typeof factor === "string" && FACTOR_NAME.test(factor))
  );
}

/** Options for {@link createJwtIssuer}. */
export interface JwtIssuerOptions {
  /** `SECRET_KEY_BASE` and, after a rotation, `SECRET_KEY_BASE_PREVIOUS`. */
  readonly secrets: SecretKeyBase;
  readonly clock?: Clock;
  /** Defaults to {@link JWT_LIFETIME_SECONDS}. */
  readonly lifetimeSeconds?: number;
}

/**
 * HS256 JWTs (`sub`, `iat`, `exp`) under a 256-bit key derived from `SECRET_KEY_BASE`. Tokens
 * signed under `SECRET_KEY_BASE_PREVIOUS` keep verifying while it is set.
 * @throws {RangeError} for a secret under 32 characters or a lifetime that is not a positive
 * integer: configuration mistakes, found at startup.
 */
export function createJwtIssuer(options: JwtIssuerOptions): JwtIssuer {
  const keys = importHmacKeys(deriveKeyRing(options.secrets, JWT_KEY_LABEL));
  const verifiedTokens = new BoundedTokenMemory(VERIFIED_TOKEN_MEMORY_SIZE);
  const clock = options.clock ?? systemClock;
  const lifetimeSeconds = options.lifetimeSeconds ?? JWT_LIFETIME_SECONDS;
  if (!Number.isSafeInteger(lifetimeSeconds) || lifetimeSeconds < 1) {
    throw new RangeError("lifetimeSeconds must be a positive integer");
  }
  return {
    async issue(userId, authentication) {
      const subject = String(userId);
      if (subject === "") throw new RangeError("a JWT subject must not be empty");
      if (authentication && !isFactorList(authentication.factors)) {
        throw new RangeError("sign-in factors must be 1 to 3 lower-case names");
      }
      const { SignJWT } = await loadJose();
      const issuedAt = Math.floor(clock() / 1000);
      const claims = authentication
        ? {
            auth_time: Math.min(issuedAt, Math.floor(authentication.at / 1000)),
            amr: [...authentication.factors],
          }
        : {};
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(subject)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetimeSeconds)
        .sign(await keys.current);
      return { token, expiresIn: lifetimeSeconds };
    },
    async verify(token) {
      // Clients send the same token for its whole hour, so a verified token is remembered;
      // only its expiry is checked again. Only tokens that passed jose's check are kept.
      const remembered = verifiedTokens.get(token);
      if (remembered) {
        if (clock() < remembered.expiresAt * 1000) return ok(remembered);
        verifiedTokens.delete(token);
        return fail("expired");
      }
      const verified = await verifyJwt(token, keys, clock);
      if (verified.ok) verifiedTokens.remember(token, verified.value);
      return verified;
    },
  };
}

// jose costs a process about 0.1 s of start-up and 10 MiB: imported by the first token issued
// or checked (a token already verified is answered from memory without it).
const loadJose = loadOnFirstUse(() => import("jose"));

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * jose decodes base64url leniently: it accepts `=` padding and ignores the stray low bits of
 * the last character, so several texts carry one signature. Tokens are held to their single
 * canonical form, so a token that verifies has exactly one spelling.
 */
function isCanonicalCompactJws(token: string): boolean {
  if (token.length > MAXIMUM_JWT_LENGTH || !COMPACT_JWS.test(token)) return false;
  try {
    for (const segment of token.split(".")) decodeBase64url(segment);
    return true;
  } catch {
    return false;
  }
}

/** How many verified tokens an issuer remembers (about 300 KB at most). */
export const VERIFIED_TOKEN_MEMORY_SIZE = 1024;

/** Verified tokens, oldest forgotten first once full. */
class BoundedTokenMemory {
  readonly #entries = new Map<string, VerifiedJwt>();
  constructor(private readonly capacity: number) {}

  get(token: string): VerifiedJwt | undefined {
    return this.#entries.get(token);
  }

  delete(token: string): void {
    this.#entries.delete(token);
  }

  remember(token: string, verified: VerifiedJwt): void {
    if (this.#entries.size >= this.capacity) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(token, verified);
  }
}

/** A key ring's keys imported once as WebCrypto HMAC keys: jose would import raw bytes per call. */
interface HmacKeyRing {
  readonly current: Promise<CryptoKey>;
  readonly all: readonly Promise<CryptoKey>[];
}

function importHmacKeys(ring: KeyRing): HmacKeyRing {
  const all = ring.all.map((key) =>
    globalThis.crypto.subtle.importKey(
      "raw",
      key as BufferSource,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    ),
  );
  return { current: all[0]!, all };
}

async function verifyJwt(
  token: string,
  keys: HmacKeyRing,
  clock: Clock,
): Promise<Result<VerifiedJwt, JwtFailure>> {
  if (typeof token !== "string" || !isCanonicalCompactJws(token)) return fail("malformed-token");
  const { errors, jwtVerify } = await loadJose();
  for (const key of keys.all) {
    try {
      const { payload } = await jwtVerify(token, await key, {
        algorithms: ["HS256"],
        requiredClaims: ["sub", "iat", "exp"],
        // No clock tolerance: one service signs and checks, so only its own clock (or an NTP
        // fleet's, seconds apart) is involved, against a lifetime of an hour.
        currentDate: new Date(clock()),
      });
      if (typeof payload.sub !== "string" || payload.sub === "") return fail("invalid-claims");
      const authentication = readAuthentication(payload);
      if (authentication === "invalid") return fail("invalid-claims");
      return ok({
        subject: payload.sub,
        expiresAt: payload.exp!,
        issuedAt: payload.iat!,
        authentication,
      });
    } catch (error) {
      const failure = classifyJoseError(error, errors);
      // Only a MAC mismatch depends on the key; every other failure is the same under all.
      if (failure !== "bad-signature") return fail(failure);
    }
  }
  return fail("bad-signature");
}

/**
 * The sign-in a token's `auth_time` and `amr` claims describe: both or neither, `auth_time` a
 * whole number of seconds no later than `iat`. Anything else in a token we signed is a fault,
 * refused like any other bad claim.
 */
function readAuthentication(payload: {
  readonly iat?: number | undefined;
  readonly [claim: string]: unknown;
}): SignInAuthentication | undefined | "invalid" {
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

function classifyJoseError(error: unknown, errors: typeof JoseErrors): JwtFailure {
  // Anything but a JOSEError is a fault of the platform or of this code, not of the token.
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
    default:
      // JWSInvalid, JWTInvalid (payload not a JSON object), JOSENotSupported (unknown `crit`).
      return "malformed-token";
  }
}
