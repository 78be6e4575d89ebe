import { type Clock, fail, ok, type Result, systemClock } from "@tessera/core";
import { randomToken, sha256Hex } from "@tessera/crypto";
import type {
  EmailedTokenPurpose,
  EmailedTokenRecord,
  EmailedTokenStore,
} from "./emailed-token-store.js";

const MINUTE_MS = 60_000;

/** How long a token of each purpose is valid: 15 minutes; 24 hours for email confirmation. */
export const EMAILED_TOKEN_LIFETIME_MS: Readonly<Record<EmailedTokenPurpose, number>> = {
  password_reset: 15 * MINUTE_MS,
  magic_link: 15 * MINUTE_MS,
  email_confirmation: 24 * 60 * MINUTE_MS,
};

// What randomToken makes: 32 bytes as unpadded base64url.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The user an emailed token belongs to, when it is valid. */
export interface EmailedTokenOwner {
  readonly userId: number;
}

/** Whether text has the shape of an emailed token (43 URL-safe base64 characters). */
export function isEmailedTokenShape(text: string): boolean {
  return TOKEN_SHAPE.test(text);
}

/**
 * Makes a token for `purpose`, stores only its SHA-256 digest with its expiry, and returns the
 * token to put in the mail. The user's previous token of that purpose stops working.
 */
export async function issueEmailedToken(
  store: EmailedTokenStore,
  userId: number,
  purpose: EmailedTokenPurpose,
  clock: Clock = systemClock,
): Promise<string> {
  const token = randomToken();
  const issuedAt = clock();
  await store.issue({
    userId,
    purpose,
    digest: sha256Hex(token),
    expiresAt: issuedAt + EMAILED_TOKEN_LIFETIME_MS[purpose],
    issuedAt,
  });
  return token;
}

/**
 * Uses a token up (the POST of a link): its owner if it was valid for `purpose` and unexpired,
 * else `invalid` (unknown, used, expired, cancelled, other purpose or malformed: callers show
 * one alert for all). Once this returned the owner, the token never works again.
 */
export async function consumeEmailedToken(
  store: EmailedTokenStore,
  token: string,
  purpose: EmailedTokenPurpose,
  clock: Clock = systemClock,
): Promise<Result<EmailedTokenOwner, "invalid">> {
  if (!isEmailedTokenShape(token)) return fail("invalid");
  return judge(await store.consume(sha256Hex(token), purpose), clock);
}

/**
 * Checks a token without using it up: for the GET of a link (a page with a button) and a form
 * re-shown after a validation error. Same answers as {@link consumeEmailedToken}.
 */
export async function peekEmailedToken(
  store: EmailedTokenStore,
  token: string,
  purpose: EmailedTokenPurpose,
  clock: Clock = systemClock,
): Promise<Result<EmailedTokenOwner, "invalid">> {
  if (!isEmailedTokenShape(token)) return fail("invalid");
  return judge(await store.peek(sha256Hex(token), purpose), clock);
}

function judge(
  record: EmailedTokenRecord | undefined,
  clock: Clock,
): Result<EmailedTokenOwner, "invalid"> {
  // Written so that an unreadable expiry (NaN) counts as expired.
  if (!record || !(clock() < record.expiresAt)) return fail("invalid");
  return ok({ userId: record.userId });
}
