import { defineAccountErrors } from "../account-errors.js";

/**
 * The refusals of the admin routes beside a 404: an operator's account is not banned, and
 * neither an operator nor a banned user is impersonated.
 */
export const adminErrors = defineAccountErrors({
  adminNotBannable: {
    code: "admin_not_bannable",
    status: 409,
    message: "accounts.admin.not_bannable",
  },
  notImpersonable: {
    code: "not_impersonable",
    status: 409,
    message: "accounts.admin.not_impersonable",
  },
});
