import { defineAccountErrors } from "../account-errors.js";

/**
 * The refusals of TOTP enrolment, each a 409 of a request that does not fit the state the
 * user's second factors are in: TOTP turned on again, a confirmation with nothing pending, new
 * backup codes without TOTP. Each has its own code, so a client acts on it without reading the
 * message.
 */
export const secondFactorErrors = defineAccountErrors({
  totpAlreadyEnabled: {
    code: "totp_already_enabled",
    status: 409,
    message: "accounts.totp_already_enabled",
  },
  totpNotPending: { code: "totp_not_pending", status: 409, message: "accounts.totp_not_pending" },
  totpNotEnabled: { code: "totp_not_enabled", status: 409, message: "accounts.totp_not_enabled" },
});
