import { type Clock, systemClock } from "@tessera/core";
import {
  deriveKeyRing,
  type KeyRing,
  openPayload,
  randomToken,
  type SecretKeyBase,
  sealPayload,
  sha256Hex,
} from "@tessera/crypto";
import type { SignInAuthentication } from "../jwt.js";
import { isFactorList } from "../jwt-verification.js";
import {
  type FoundRefreshToken,
  MAXIMUM_REFRESH_GRACE_MS,
  MAXIMUM_REFRESH_USER_AGENT_LENGTH,
  type RefreshTokenFamily,
  type RefreshTokenStore,
} from "./refresh-token-store.js";

/** How long a sign-in's refresh tokens last by default: 30 days, in seconds. */
export const REFRESH_TOKEN_LIFETIME_SECONDS = 30 * 86_400;

/** How long after a token's use a retry with it still gets its successor by default: 10 s. */
export const REFRESH_GRACE_MS = 10_000;

/** The label the keys that seal successor tokens are derived under from `SECRET_KEY_BASE`. */
export const REFRESH_SUCCESSOR_SEALING_LABEL = "tessera refresh successor";

// What randomToken makes: 43 characters of URL-safe base64.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Options for {@link refreshTokens}. */
export interface RefreshTokensOptions {
  readonly store: RefreshTokenStore;
  /** `SECRET_KEY_BASE` (and `SECRET_KEY_BASE_PREVIOUS`): successors are sealed under it. */
  readonly secretKeyBase: SecretKeyBase;
  readonly clock?: Clock | undefined;
  /**
   * How long a sign-in's tokens last, from the sign-in (default 30 days). Rotating does not
   * extend it: a family ends this long after its sign-in, however often it is refreshed.
   */
  readonly ttlSeconds?: number | undefined;
  /**
   * The grace of a retried token (default 10 s, at most `MAXIMUM_REFRESH_GRACE_MS`). Uses are
   * stored to the second, rounded down, so the grace a retry gets is up to a second shorter,
   * never longer.
   */
  readonly graceMs?: number | undefined;
}

/** The sign-in a family starts from: what {@link RefreshTokens.issue} takes. */
export interface RefreshTokenSignIn {
  readonly userId: number;
  /** How the user signed in: carried, unchanged, by every token minted by refresh. */
  readonly authentication: SignInAuthentication;
  /** The `User-Agent` header, cut to 512 characters; null or undefined when absent. */
  readonly userAgent?: string | null | undefined;
  /** The client address as the app determined it; null or undefined when it has none. */
  readonly ipAddress?: string | null | undefined;
}

/** A refresh token to hand the client, and the seconds until its family ends. */
export interface IssuedRefreshToken {
  readonly refreshToken: string;
  readonly expiresIn: number;
}

/**
 * A token exchanged: the user to mint an access token for, with the original sign-in's
 * `authentication` (so it is never a recent sign-in), and the next refresh token.
 */
export interface RotatedRefreshToken extends IssuedRefreshToken {
  readonly ok: true;
  readonly userId: number;
  readonly familyId: number;
  readonly authentication: SignInAuthentication;
}

/**
 * Why a token was refused: `unknown` (never issued, malformed, or deleted), `reused` (used
 * before, past the grace: its family is now revoked), `revoked`, `expired` (the family ended).
 */
export type RefreshFailure = "unknown" | "reused" | "revoked" | "expired";

/** What {@link RefreshTokens.rotate} answers. */
export type RefreshRotation =
  | RotatedRefreshToken
  | { readonly ok: false; readonly reason: RefreshFailure };

/** The refresh token service {@link refreshTokens} makes. */
export interface RefreshTokens {
  /**
   * Starts a family for a sign-in and returns its first token.
   * @throws {RangeError} for factors that are not 1 to 3 lower-case names, or a sign-in made
   * by someone acting for the user (an impersonation gets no refresh token: it must stay short).
   */
  issue(signIn: RefreshTokenSignIn): Promise<IssuedRefreshToken>;
  /** Exchanges a refresh token for its successor; never throws on the token, whatever it is. */
  rotate(refreshToken: unknown): Promise<RefreshRotation>;
  /** Revokes the family of the token (sign-out); false for a token it does not know. */
  revoke(refreshToken: unknown): Promise<boolean>;
}

/**
 * Refresh tokens with rotation and reuse detection (OAuth 2.0 Security BCP §4.14). A token is
 * 256 random bits, stored only as its SHA-256 digest; each use exchanges it for a new one in
 * the same family, and a token used again revokes its whole family, the thief's and the user's
 * tokens alike.
 *
 * Except within the grace (`graceMs`, 10 s): a token used again that soon gets the successor
 * its first use got, the same token, unsealed from the row (AES-256-GCM under a key derived from
 * the secret key base). A mobile client whose refresh response was lost retries with the same
 * token, and would otherwise revoke its own family; two concurrent refreshes get the same pair
 * the same way (the loser of the store's compare-and-set reads the winner's successor). The
 * trade-off: a thief presenting a stolen token within the grace of its legitimate use gets the
 * successor too; the next use of a used token past the grace, by either, still revokes the
 * family. The family ends `ttlSeconds` after the sign-in: refreshing never extends it.
 *
 * Tokens are never logged; only digests are compared.
 *
 * @example
 * ```ts
 * import { createJwtIssuer, refreshTokens, unauthorizedResponse } from "@tessera/bearer";
 * import { SqlRefreshTokenStore } from "@tessera/bearer/sql";
 *
 * declare const database: import("@tessera/sql").SqlDatabase;
 * const secrets = { current: process.env.SECRET_KEY_BASE! };
 * const refresh = refreshTokens({ store: new SqlRefreshTokenStore(database), secretKeyBase: secrets });
 * const jwt = createJwtIssuer({ secrets });
 *
 * // POST /api/auth/refresh
 * async function refreshed(body: { refresh_token?: unknown }): Promise<Response> {
 *   const rotated = await refresh.rotate(body.refresh_token);
 *   if (!rotated.ok) return unauthorizedResponse(); // rotated.reason says why, for the logs
 *   const access = await jwt.issue(rotated.userId, rotated.authentication);
 *   return Response.json({ token: access.token, refresh_token: rotated.refreshToken });
 * }
 * ```
 */
export function refreshTokens(options: RefreshTokensOptions): RefreshTokens {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const ttlSeconds = options.ttlSeconds ?? REFRESH_TOKEN_LIFETIME_SECONDS;
  const graceMs = options.graceMs ?? REFRESH_GRACE_MS;
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds <= 0) {
    throw new RangeError("ttlSeconds must be a positive whole number");
  }
  if (!Number.isSafeInteger(graceMs) || graceMs < 0 || graceMs > MAXIMUM_REFRESH_GRACE_MS) {
    throw new RangeError(`graceMs must be a whole number from 0 to ${MAXIMUM_REFRESH_GRACE_MS}`);
  }
  const sealing = deriveKeyRing(options.secretKeyBase, REFRESH_SUCCESSOR_SEALING_LABEL);

  /** The token a retry within the grace gets again; otherwise the family is revoked. */
  async function replay(found: FoundRefreshToken, now: number): Promise<RefreshRotation> {
    const { token, family } = found;
    if (token.usedAt !== null && token.successorSealed !== null && now - token.usedAt <= graceMs) {
      const successor = await openSuccessor(sealing, token.digest, token.successorSealed);
      if (successor !== undefined) return rotated(family, successor, now);
    }
    await store.revokeFamily(family.id, now);
    return { ok: false, reason: "reused" };
  }

  return {
    async issue(signIn) {
      const { authentication } = signIn;
      if (!isFactorList(authentication.factors)) {
        throw new RangeError("sign-in factors must be 1 to 3 lower-case names");
      }
      if (authentication.actor !== undefined) {
        throw new RangeError("a sign-in acting for another user gets no refresh token");
      }
      const now = clock();
      const expiresAt = wholeSeconds(now + ttlSeconds * 1000);
      const refreshToken = randomToken();
      await store.createFamily({
        userId: signIn.userId,
        tokenDigest: sha256Hex(refreshToken),
        createdAt: now,
        expiresAt,
        userAgent: signIn.userAgent?.trim().slice(0, MAXIMUM_REFRESH_USER_AGENT_LENGTH) || null,
        ipAddress: signIn.ipAddress || null,
        authTime: authentication.at,
        factors: authentication.factors,
      });
      return { refreshToken, expiresIn: secondsUntil(expiresAt, now) };
    },

    async rotate(refreshToken) {
      if (!isTokenShaped(refreshToken)) return { ok: false, reason: "unknown" };
      const digest = sha256Hex(refreshToken);
      const found = await store.findToken(digest);
      if (!found) return { ok: false, reason: "unknown" };
      const now = clock();
      const ended = familyEnded(found.family, now);
      if (ended) return { ok: false, reason: ended };
      if (found.token.usedAt !== null) return replay(found, now);

      const successor = randomToken();
      const sealed = await sealPayload(sealing.current, successor, successorContext(digest));
      if (await store.markUsed(digest, { digest: sha256Hex(successor), sealed }, now)) {
        return rotated(found.family, successor, now);
      }
      // Another request used it first, or the family ended meanwhile: read it again.
      const again = await store.findToken(digest);
      if (!again) return { ok: false, reason: "unknown" };
      const endedSince = familyEnded(again.family, now);
      if (endedSince) return { ok: false, reason: endedSince };
      if (again.token.usedAt === null) return { ok: false, reason: "unknown" };
      return replay(again, now);
    },

    async revoke(refreshToken) {
      if (!isTokenShaped(refreshToken)) return false;
      const found = await store.findToken(sha256Hex(refreshToken));
      if (!found) return false;
      await store.revokeFamily(found.family.id, clock());
      return true;
    },
  };
}

function isTokenShaped(value: unknown): value is string {
  return typeof value === "string" && TOKEN_SHAPE.test(value);
}

function familyEnded(family: RefreshTokenFamily, now: number): "revoked" | "expired" | undefined {
  if (family.revokedAt !== null) return "revoked";
  if (family.expiresAt <= now) return "expired";
  return undefined;
}

function rotated(
  family: RefreshTokenFamily,
  refreshToken: string,
  now: number,
): RotatedRefreshToken {
  return {
    ok: true,
    userId: family.userId,
    familyId: family.id,
    refreshToken,
    expiresIn: secondsUntil(family.expiresAt, now),
    authentication: { at: family.authTime, factors: [...family.factors] },
  };
}

// The parent's digest is authenticated with its successor: a sealed successor copied onto
// another token's row is refused.
const successorContext = (parentDigest: string) => `refresh-successor:${parentDigest}`;

/** The successor's plaintext, or undefined when it does not open (secret key base changed). */
async function openSuccessor(
  keys: KeyRing,
  parentDigest: string,
  sealed: string,
): Promise<string | undefined> {
  const opened = await openPayload(keys, sealed, successorContext(parentDigest));
  if (!opened.ok) return undefined;
  const successor = new TextDecoder().decode(opened.value);
  return isTokenShaped(successor) ? successor : undefined;
}

/** Whole seconds from `now` until `time`, rounded up, never negative. */
function secondsUntil(time: number, now: number): number {
  return Math.max(0, Math.ceil((time - now) / 1000));
}

/** The instant rounded down to the second, as stores keep times. */
function wholeSeconds(time: number): number {
  return Math.floor(time / 1000) * 1000;
}
