import { unstorableText } from "@tessera/core";

/**
 * The HTML standard's "valid email address" (the same rule browsers apply to
 * `<input type="email">`, and Rails' `URI::MailTo::EMAIL_REGEXP`): ASCII local part, dotted
 * host labels of at most 63 characters.
 */
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Longest address accepted (RFC 5321's path limit). */
export const MAXIMUM_EMAIL_LENGTH = 254;

/**
 * Normalizes an address before validation and every lookup: Unicode NFKC (so fullwidth or
 * compatibility characters cannot make a look-alike second account), trimmed, lower-cased.
 */
export function normalizeEmail(input: string): string {
  return input.normalize("NFKC").trim().toLowerCase();
}

/**
 * Longest submitted text that is normalized at all: four times an address, room for surrounding
 * spaces and for characters NFKC folds (a mathematical letter is two UTF-16 units, one after).
 */
const MAXIMUM_SUBMITTED_EMAIL_LENGTH = 4 * MAXIMUM_EMAIL_LENGTH;

/**
 * {@link normalizeEmail} for text a stranger submits: undefined when it is longer than any
 * address can be, so a megabyte is refused before it is normalized, looked up or counted; and
 * when it holds a NUL or a lone surrogate, which no address has and PostgreSQL refuses as a
 * parameter.
 */
export function normalizeSubmittedEmail(input: string): string | undefined {
  if (input.length > MAXIMUM_SUBMITTED_EMAIL_LENGTH) return undefined;
  const email = normalizeEmail(input);
  return email.length <= MAXIMUM_EMAIL_LENGTH && !unstorableText(email) ? email : undefined;
}

/** True when a normalized address has the accepted format and length. */
export function isValidEmail(email: string): boolean {
  return email.length <= MAXIMUM_EMAIL_LENGTH && EMAIL_PATTERN.test(email);
}
