import { BLANK, INVALID, tooLongMessage, unstorableText } from "@tessera/core";

/** Longest API key name, in characters (Unicode code points) after trimming. */
export const API_KEY_NAME_MAX_LENGTH = 100;

/** Messages for the `name` field (docs/errors.md). */
export const API_KEY_NAME_MESSAGES = {
  blank: BLANK,
  invalid: INVALID,
  tooLong: tooLongMessage(API_KEY_NAME_MAX_LENGTH),
} as const;

/** A name that passed, trimmed; or the messages for the `name` field of a 422. */
export type ApiKeyNameCheck =
  | { readonly ok: true; readonly value: string }
  | {
      readonly ok: false;
      readonly reason: "invalid-name";
      readonly fields: { readonly name: readonly string[] };
    };

/**
 * Validates the `name` given when creating a key: required, trimmed, not blank, at most 100
 * characters. Missing or null counts as blank; any other non-text value is `is invalid`, and so
 * is text holding a NUL or a lone surrogate, which no database stores alike (PostgreSQL
 * refuses a NUL, SQLite keeps it).
 */
export function checkApiKeyName(name: unknown): ApiKeyNameCheck {
  const refuse = (message: string): ApiKeyNameCheck => ({
    ok: false,
    reason: "invalid-name",
    fields: { name: [message] },
  });
  if (name === undefined || name === null) return refuse(API_KEY_NAME_MESSAGES.blank);
  if (typeof name !== "string" || unstorableText(name))
    return refuse(API_KEY_NAME_MESSAGES.invalid);
  const trimmed = name.trim();
  if (trimmed === "") return refuse(API_KEY_NAME_MESSAGES.blank);
  // Counted in code points, as a person counts characters, not in UTF-16 units.
  if ([...trimmed].length > API_KEY_NAME_MAX_LENGTH) return refuse(API_KEY_NAME_MESSAGES.tooLong);
  return { ok: true, value: trimmed };
}
