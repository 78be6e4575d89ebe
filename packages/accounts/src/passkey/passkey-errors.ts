import { defineAccountErrors } from "../account-errors.js";

/**
 * The refusals of passkeys: a new passkey whose response does not verify or answers no live
 * challenge, and a second step asking for passkey options of a user without one.
 */
export const passkeyErrors = defineAccountErrors({
  passkeyInvalid: { code: "passkey_invalid", status: 400, message: "accounts.passkey_invalid" },
  noPasskey: { code: "no_passkey", status: 409, message: "accounts.no_passkey" },
});
