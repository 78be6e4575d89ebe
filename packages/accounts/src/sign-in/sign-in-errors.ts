import { defineAccountErrors } from "../account-errors.js";

/**
 * The refusals of the sign-in grant and of recent sign-in, answered by every route that signs
 * in or changes credentials: a first step that still needs the second factor (its answer also
 * holds `mfa_token` and `methods`), a change without a recent, full sign-in, and one asked
 * with an API key, which never may.
 */
export const signInErrors = defineAccountErrors({
  mfaRequired: { code: "mfa_required", status: 403, message: "accounts.mfa_required" },
  reauthenticationRequired: {
    code: "reauthentication_required",
    status: 403,
    message: "accounts.reauthentication_required",
  },
  apiKeyNotAllowed: {
    code: "api_key_not_allowed",
    status: 403,
    message: "accounts.api_key_not_allowed",
  },
});
