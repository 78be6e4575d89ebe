import { defineAccountErrors } from "../account-errors.js";

/**
 * The refusal of a route protected by a captcha: a token missing, refused by the provider, or
 * that could not be verified (the check fails closed).
 */
export const captchaErrors = defineAccountErrors({
  captchaFailed: { code: "captcha_failed", status: 400, message: "accounts.captcha_failed" },
});
