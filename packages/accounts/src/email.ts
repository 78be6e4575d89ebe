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

/** True when a normalized address has the accepted format and length. */
export function isValidEmail(email: string): boolean {
  return email.length <= MAXIMUM_EMAIL_LENGTH && EMAIL_PATTERN.test(email);
}
