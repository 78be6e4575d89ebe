import { type Clock, fail, ok, type Result, systemClock } from "@tessera/core";
import { deriveKeyRing, type KeyRing, type SecretKeyBase } from "@tessera/crypto";
import { createAsymmetricJwtIssuer } from "./asymmetric-jwt.js";
import { type AsymmetricJwtAlgorithm, isAsymmetricJwtAlgorithm } from "./jwt-algorithm.js";
import {
  ACTING_JWT_LIFETIME_SECONDS,
  classifyJoseError,
  type ExpectedClaims,
  expectedClaims,
  isCanonicalCompactJws,
  joseVerifyOptions,
  loadJose,
  MAXIMUM_AMR_FACTORS,
  MAXIMUM_JWT_LENGTH,
  signJwt,
  verifiedPayload,
} from "./jwt-verification.js";
import type { KeySet } from "./keys/key-set.js";

export { ACTING_JWT_LIFETIME_SECONDS, MAXIMUM_AMR_FACTORS, MAXIMUM_JWT_LENGTH };

/** The JWT lifetime: 3600 seconds. */
export const JWT_LIFETIME_SECONDS = 3600;

/**
 * The label the JWT signing key is derived under from `SECRET_KEY_BASE`. No other key of
 * Tessera uses it, so a cookie key can never verify a JWT, nor a JWT key open a cookie.
 */
export const JWT_KEY_LABEL = "tessera jwt hs256";

/** Why {@link JwtVerifier.verify} refused a token. Log it; never tell the client which. */
export type JwtFailure =
  /** Not three canonical base64url segments, or a header or payload that is not a JSON object. */
  | "malformed-token"
  /** A header `alg` other than the issuer's (HS256 by default), including `none`. */
  | "algorithm-not-allowed"
  /** Signed with no key of the ring, or not by the key its `kid` names. */
  | "bad-signature"
  /** A `kid` that names no key of the set (EdDSA/ES256 only), or none at all. */
  | "unknown-key"
  /** `exp` is at or before now. */
  | "expired"
  /**
   * `sub`, `iat` or `exp` missing or of the wrong type, `sub` empty, `nbf` in the future, or
   * `iss`/`aud` not the configured ones.
   */
  | "invalid-claims";

/**
 * How the sign-in behind a token was made, as its `auth_time` and `amr` claims carry it: when
 * (epoch milliseconds, whole seconds) and with which factors, in order (`["password", "totp"]`).
 * Routes that change credentials read it to ask for a recent, full sign-in.
 */
export interface SignInAuthentication {
  readonly at: number;
  readonly factors: readonly string[];
  /**
   * Who acts for the user, when someone else does (an operator impersonating them): their id,
   * the token's `act.sub` claim (RFC 8693). Such a token lasts at most
   * {@link ACTING_JWT_LIFETIME_SECONDS}, and a bearer authenticator refuses it unless the app
   * vouches for the actor (`checkActor`).
   */
  readonly actor?: string | undefined;
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

/** What every issuer takes, whatever its algorithm. */
export interface JwtIssuerCommonOptions {
  readonly clock?: Clock | undefined;
  /** Defaults to {@link JWT_LIFETIME_SECONDS}. */
  readonly lifetimeSeconds?: number | undefined;
  /** The `iss` claim (the app's URL): set on every token and required when verifying. */
  readonly issuer?: string | undefined;
  /** The `aud` claim: set on every token and required when verifying. */
  readonly audience?: string | undefined;
}

/** The default: HS256 under a key derived from `SECRET_KEY_BASE`. */
export interface HmacJwtIssuerOptions extends JwtIssuerCommonOptions {
  readonly algorithm?: "HS256" | undefined;
  /** `SECRET_KEY_BASE` and, after a rotation, `SECRET_KEY_BASE_PREVIOUS`. */
  readonly secrets: SecretKeyBase;
}

/** EdDSA (Ed25519) or ES256 under the signing keys of a {@link KeySet}. */
export interface AsymmetricJwtIssuerOptions extends JwtIssuerCommonOptions {
  readonly algorithm: AsymmetricJwtAlgorithm;
  /** The keys: the current one signs, every one in the set verifies (by the token's `kid`). */
  readonly keys: KeySet;
}

/** Options for {@link createJwtIssuer}: HS256 with `secrets`, or EdDSA/ES256 with `keys`. */
export type JwtIssuerOptions = HmacJwtIssuerOptions | AsymmetricJwtIssuerOptions;

/**
 * JWTs (`sub`, `iat`, `exp`; `iss` and `aud` when configured). By default HS256 under a 256-bit
 * key derived from `SECRET_KEY_BASE`, tokens signed under `SECRET_KEY_BASE_PREVIOUS` verifying
 * while it is set; with `algorithm: "EdDSA"` or `"ES256"`, signed by the current key of a
 * {@link KeySet} and verified by the key their `kid` names.
 * @throws {RangeError} for a secret under 32 characters, a lifetime that is not a positive
 * integer, an unknown algorithm or a missing key set: configuration mistakes, found at startup.
 */
export function createJwtIssuer(options: JwtIssuerOptions): JwtIssuer {
  const lifetimeSeconds = options.lifetimeSeconds ?? JWT_LIFETIME_SECONDS;
  if (!Number.isSafeInteger(lifetimeSeconds) || lifetimeSeconds < 1) {
    throw new RangeError("lifetimeSeconds must be a positive integer");
  }
  if (options.algorithm !== undefined && options.algorithm !== "HS256") {
    if (!isAsymmetricJwtAlgorithm(options.algorithm)) {
      throw new RangeError(`unsupported JWT algorithm: ${String(options.algorithm)}`);
    }
    return createAsymmetricJwtIssuer({
      ...(options as AsymmetricJwtIssuerOptions),
      lifetimeSeconds,
    });
  }
  return createHmacJwtIssuer(options as HmacJwtIssuerOptions, lifetimeSeconds);
}

function createHmacJwtIssuer(options: HmacJwtIssuerOptions, lifetimeSeconds: number): JwtIssuer {
  const keys = importHmacKeys(deriveKeyRing(options.secrets, JWT_KEY_LABEL));
  const verifiedTokens = new BoundedTokenMemory(VERIFIED_TOKEN_MEMORY_SIZE);
  const clock = options.clock ?? systemClock;
  const claimsExpected = expectedClaims(options);
  return {
    async issue(userId, authentication) {
      const signing = { header: { alg: "HS256" }, key: await keys.current };
      return signJwt(
        userId,
        authentication,
        { clock, lifetimeSeconds, claims: claimsExpected },
        signing,
      );
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
      const verified = await verifyJwt(token, keys, clock, claimsExpected);
      if (verified.ok) verifiedTokens.remember(token, verified.value);
      return verified;
    },
  };
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
  claimsExpected: ExpectedClaims,
): Promise<Result<VerifiedJwt, JwtFailure>> {
  if (!isCanonicalCompactJws(token)) return fail("malformed-token");
  const { errors, jwtVerify } = await loadJose();
  for (const key of keys.all) {
    try {
      const { payload } = await jwtVerify(
        token,
        await key,
        joseVerifyOptions(["HS256"], claimsExpected, clock()),
      );
      return verifiedPayload(payload);
    } catch (error) {
      const failure = classifyJoseError(error, errors);
      // Only a MAC mismatch depends on the key; every other failure is the same under all.
      if (failure !== "bad-signature") return fail(failure);
    }
  }
  return fail("bad-signature");
}
