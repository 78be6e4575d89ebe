/**
 * The English texts of passkeys: a registration that does not verify, an account without one;
 * `accountMessages` holds them all.
 */
export const passkeyTexts = {
  "accounts.passkey_invalid": "The passkey could not be verified. Try adding it again.",
  "accounts.no_passkey": "This account has no passkey.",
} as const;
