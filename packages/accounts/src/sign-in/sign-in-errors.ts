import { defineAccountErrors } from "../account-errors.js";

/**
 * The refusals of the sign-in grant and of recent sign-in, answered by every route that signs
 * in or changes credentials: a first step that still needs the second factor (its answer also
 * holds `mfa_token` and `methods`), a change without a recent, full sign-in, one asked
 * with an API key or by an operator acting as the user, which never may, and a guess at an
 * account that must wait (per-account throttling; its answer carries `Retry-After`).
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
  impersonationNotAllowed: {
    code: "impersonation_not_allowed",
    status: 403,
    message: "accounts.impersonation_not_allowed",
  },
  accountBanned: { code: "account_banned", status: 403, message: "accounts.account_banned" },
  accountThrottled: {
    code: "account_throttled",
    status: 429,
    message: "accounts.account_throttled",
  },
});
