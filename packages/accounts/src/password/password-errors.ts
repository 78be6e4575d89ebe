import { defineAccountErrors } from "../account-errors.js";

/**
 * The refusals of a password, and of every credential judged like one: the 401 of a sign-in
 * whose email and password (or code, passkey, `mfa_token`) do not match, the same for an
 * unknown email; and the 403 of a signed-in user's wrong password where a change asks for it
 * (deleting the account, a new password or email address). Both are `invalid_credentials`:
 * the status tells "sign in again" from "wrong password".
 */
export const passwordErrors = defineAccountErrors({
  invalidCredentials: {
    code: "invalid_credentials",
    status: 401,
    message: "accounts.invalid_credentials",
  },
  passwordIncorrect: {
    code: "invalid_credentials",
    status: 403,
    message: "accounts.password_incorrect",
  },
});
