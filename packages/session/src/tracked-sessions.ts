import { type Clock, fail, ok, type Result, systemClock } from "@tessera/core";
import { randomToken, sha256Hex } from "@tessera/crypto";
import type { Session } from "./session.js";
import { browserName } from "./tracked-session-browser.js";
import type { TrackedSession, TrackedSessionStore } from "./tracked-session-store.js";

/** The name of the cookie session's extra value that holds the tracked-session token. */
export const TRACKED_SESSION_VALUE = "tracked";
/** The limit: a device's last-seen time is written at most once an hour. */
export const LAST_SEEN_WRITE_INTERVAL_MS = 3_600_000;
/** Longest `User-Agent` kept in a row: browsers send about 100 to 250 characters. */
export const MAXIMUM_USER_AGENT_LENGTH = 512;

/** What a sign-in's row records about the device. */
export interface StartTrackedSessionOptions {
  /** The client address as the app determined it (socket, or per `TRUST_PROXY`). */
  readonly ipAddress: string | null;
  /** The request's `User-Agent` header (`request.headers.get("user-agent")`). */
  readonly userAgent: string | null;
  readonly clock?: Clock | undefined;
  /** What signed the session in (`password`, `totp`…), recorded on its row. */
  readonly factors?: readonly string[] | undefined;
}

/**
 * Why {@link checkTrackedSession} refused a request: `not-signed-in` (nothing to check, nothing
 * changed); `untracked` (signed in without a token: a sign-in path that does not call
 * {@link startTrackedSession}); `ended` (the row is gone: the device was signed out from
 * another one, or the user was deleted); `expired`. All but `not-signed-in` signed it out.
 */
export type TrackedSessionRefusal = "not-signed-in" | "untracked" | "ended" | "expired";

/**
 * Records a sign-in: one row per sign-in, found later by the SHA-256 digest of a fresh random
 * token that only the cookie holds. Call it right after `session.signIn` (the
 * `afterSignIn` hook of the HTML account routes), on every sign-in path: with tracked sessions
 * on, a sign-in without a row is signed out at its next check. The row expires with the
 * cookie sign-in.
 * @throws {TypeError} when nobody is signed in on `session`: a programmer error.
 */
export async function startTrackedSession(
  store: TrackedSessionStore,
  session: Session,
  options: StartTrackedSessionOptions,
): Promise<TrackedSession> {
  const userId = session.userId;
  const expiresAt = session.signedInUntil;
  if (userId === undefined || expiresAt === undefined) {
    throw new TypeError("startTrackedSession needs a signed-in session: call it after signIn");
  }
  const token = randomToken();
  const userAgent = options.userAgent?.trim().slice(0, MAXIMUM_USER_AGENT_LENGTH) || null;
  const tracked = await store.create({
    userId,
    digest: sha256Hex(token),
    ipAddress: options.ipAddress || null,
    browser: browserName(userAgent),
    userAgent,
    expiresAt,
    createdAt: (options.clock ?? systemClock)(),
    ...(options.factors ? { factors: options.factors } : {}),
  });
  session.set(TRACKED_SESSION_VALUE, token);
  return tracked;
}

/**
 * Checks the signed-in session against its row; call it on every request, before the access
 * modes. No row (the device was signed out elsewhere), an expired row, or no token signs the
 * session out and says why. Otherwise it gives the row (as read, before this request's
 * last-seen write), whose id marks "this device"; the last-seen time is written only when the
 * row just read is an hour old, and then by a conditional update, so concurrent requests
 * write it once.
 */
export async function checkTrackedSession(
  store: TrackedSessionStore,
  session: Session,
  clock: Clock = systemClock,
): Promise<Result<TrackedSession, TrackedSessionRefusal>> {
  const userId = session.userId;
  if (userId === undefined) return fail("not-signed-in");
  const token = session.get(TRACKED_SESSION_VALUE);
  const row = token === undefined ? undefined : await store.findByDigest(userId, sha256Hex(token));
  if (row === undefined) {
    session.signOut();
    return fail(token === undefined ? "untracked" : "ended");
  }
  const now = clock();
  if (now >= row.expiresAt) {
    await store.deleteForUser(userId, row.id);
    session.signOut();
    return fail("expired");
  }
  const staleAt = now - LAST_SEEN_WRITE_INTERVAL_MS;
  if (row.lastSeenAt <= staleAt) await store.touchLastSeen(row.id, now, staleAt);
  return ok(row);
}

/**
 * Ends this browser's tracked session: deletes its row and signs the session out. For logout;
 * call it before anything else empties the session, which would lose the token.
 * Returns whether a row was deleted.
 */
export async function endCurrentTrackedSession(
  store: TrackedSessionStore,
  session: Session,
): Promise<boolean> {
  const userId = session.userId;
  const token = session.get(TRACKED_SESSION_VALUE);
  session.signOut();
  if (userId === undefined || token === undefined) return false;
  const row = await store.findByDigest(userId, sha256Hex(token));
  return row !== undefined && (await store.deleteForUser(userId, row.id));
}

/** The user's signed-in devices that have not expired, the most recently seen first. */
export function listTrackedSessions(
  store: TrackedSessionStore,
  userId: number,
  clock: Clock = systemClock,
): Promise<TrackedSession[]> {
  return store.listForUser(userId, clock());
}

/**
 * Signs device `id` out at its next request. False when `userId` has no such session: another
 * user's id is answered exactly like a missing one.
 */
export function endTrackedSession(
  store: TrackedSessionStore,
  userId: number,
  id: number,
): Promise<boolean> {
  return store.deleteForUser(userId, id);
}

/**
 * Signs every other device of the user out at its next request and returns how many there
 * were. Without `currentId` (a password reset made while signed out) it ends all of them.
 */
export function endOtherTrackedSessions(
  store: TrackedSessionStore,
  userId: number,
  currentId?: number,
): Promise<number> {
  return store.deleteOthersForUser(userId, currentId);
}

/**
 * Deletes the rows of every expired sign-in and returns how many. Expired rows already refuse
 * their cookies; this only keeps the table small. Run it outside requests: at process start and
 * then periodically (the example app: every 10 minutes), since a process may not live long.
 */
export function deleteExpiredTrackedSessions(
  store: TrackedSessionStore,
  now: number,
): Promise<number> {
  return store.deleteExpired(now);
}
