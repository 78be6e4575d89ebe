import { BLANK, tooLongMessage } from "@tessera/core";
import type { FieldErrors } from "../messages.js";
import { MAXIMUM_PASSKEY_NAME_LENGTH } from "./passkeys.js";

/** The name a passkey gets when the person gave none. */
export const DEFAULT_PASSKEY_NAME = "Passkey";

/**
 * A passkey's name as a person typed it, trimmed: blank or over
 * {@link MAXIMUM_PASSKEY_NAME_LENGTH} characters is the `name` message of a 422.
 */
export function checkPasskeyName(
  typed: string,
):
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly fields: FieldErrors } {
  const name = typed.trim();
  if (name === "") return { ok: false, fields: { name: [BLANK] } };
  if ([...name].length > MAXIMUM_PASSKEY_NAME_LENGTH) {
    return { ok: false, fields: { name: [tooLongMessage(MAXIMUM_PASSKEY_NAME_LENGTH)] } };
  }
  return { ok: true, value: name };
}
