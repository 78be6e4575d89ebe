import { type Clock, fail, ok, type Result, systemClock } from "@tessera/core";
import { randomToken, sha256Hex } from "@tessera/crypto";
import { isEmailedTokenShape } from "../email-link/emailed-tokens.js";
import type { EmailChangeStore, PendingEmailChange } from "./email-change-store.js";

/** How long the link to a new address is valid: 24 hours, as an address confirmation's. */
export const EMAIL_CHANGE_LIFETIME_MS = 24 * 60 * 60_000;

/**
 * Makes the token of a change of `userId`'s address to `newEmail` (normalized and checked by
 * the caller), stores only its SHA-256 digest with its expiry, and returns the token to mail to
 * the new address. The user's pending change, if any, stops working.
 */
export async function issueEmailChange(
  store: EmailChangeStore,
  userId: number,
  newEmail: string,
  clock: Clock = systemClock,
): Promise<string> {
  const token = randomToken();
  const requestedAt = clock();
  await store.request({
    userId,
    newEmail,
    digest: sha256Hex(token),
    expiresAt: requestedAt + EMAIL_CHANGE_LIFETIME_MS,
    requestedAt,
  });
  return token;
}

/**
 * Uses a change's token up (the POST of its link): the change if it was pending and unexpired,
 * else `invalid` (unknown, used, replaced, expired or malformed: callers answer one way for
 * all). Once this returned the change, the token never works again.
 */
export async function consumeEmailChange(
  store: EmailChangeStore,
  token: string,
  clock: Clock = systemClock,
): Promise<Result<PendingEmailChange, "invalid">> {
  if (!isEmailedTokenShape(token)) return fail("invalid");
  return judge(await store.consume(sha256Hex(token)), clock);
}

/** Checks a change's token without using it up (the GET of its link): as {@link consumeEmailChange}. */
export async function peekEmailChange(
  store: EmailChangeStore,
  token: string,
  clock: Clock = systemClock,
): Promise<Result<PendingEmailChange, "invalid">> {
  if (!isEmailedTokenShape(token)) return fail("invalid");
  return judge(await store.peek(sha256Hex(token)), clock);
}

function judge(
  change: PendingEmailChange | undefined,
  clock: Clock,
): Result<PendingEmailChange, "invalid"> {
  // Written so that an unreadable expiry (NaN) counts as expired.
  if (!change || !(clock() < change.expiresAt)) return fail("invalid");
  return ok(change);
}
