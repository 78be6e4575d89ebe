import { tooLongMessage, validationMessages } from "@tessera/core";
/** Shortest accepted password, in Unicode code points. */
export const MINIMUM_PASSWORD_LENGTH = 8;
/** Longest accepted password, in Unicode code points. */
export const MAXIMUM_PASSWORD_LENGTH = 128;
/** The message for a password under {@link MINIMUM_PASSWORD_LENGTH}, in English. */
export const PASSWORD_TOO_SHORT = validationMessages.text(
  undefined,
  "validation.too_short_characters",
  { minimum: MINIMUM_PASSWORD_LENGTH },
);
/** The message for a password over {@link MAXIMUM_PASSWORD_LENGTH}, in English. */
export const PASSWORD_TOO_LONG = tooLongMessage(MAXIMUM_PASSWORD_LENGTH);

/**
 * Checks a new password against the length policy and returns the validation messages (empty
 * when it passes), ready for a 422 `fields.password`. Length counts Unicode code points, so
 * "🔑" is one character as a person sees it, not two UTF-16 units. The text is not trimmed or
 * normalized: the password hashed is exactly the one checked.
 */
export function checkPasswordPolicy(password: string): string[] {
  let length = 0;
  for (const _codePoint of password) length++;
  if (length < MINIMUM_PASSWORD_LENGTH) return [PASSWORD_TOO_SHORT];
  if (length > MAXIMUM_PASSWORD_LENGTH) return [PASSWORD_TOO_LONG];
  return [];
}
