import type { HttpErrorCode } from "@tessera/http";
import type { AccountErrorCodeOf } from "./account-errors.js";
import { adminErrors } from "./admin/admin-errors.js";
import { captchaErrors } from "./captcha/captcha-errors.js";
import { passkeyErrors } from "./passkey/passkey-errors.js";
import { passwordErrors } from "./password/password-errors.js";
import { secondFactorErrors } from "./second-factor/second-factor-errors.js";
import { signInErrors } from "./sign-in/sign-in-errors.js";

/**
 * Every feature's error table by feature: a feature with refusals of its own lists its table
 * here, which puts its codes in {@link AccountErrorCode}.
 */
export const accountErrorTables = {
  signIn: signInErrors,
  password: passwordErrors,
  passkey: passkeyErrors,
  secondFactor: secondFactorErrors,
  captcha: captchaErrors,
  admin: adminErrors,
} as const;

type AccountErrorTables = typeof accountErrorTables;

/**
 * The `error.code`s the account routes answer with: `@tessera/http`'s, and the codes of every
 * feature's error table (`invalid_credentials`, `mfa_required`, `reauthentication_required`,
 * `api_key_not_allowed`, `passkey_invalid`, `no_passkey`, `totp_already_enabled`,
 * `totp_not_pending`, `totp_not_enabled`), which a client tells apart from the status's own word.
 */
export type AccountErrorCode =
  | HttpErrorCode
  | {
      [Feature in keyof AccountErrorTables]: AccountErrorCodeOf<AccountErrorTables[Feature]>;
    }[keyof AccountErrorTables];

/** The code of a refused email and password. */
export const INVALID_CREDENTIALS: AccountErrorCode = passwordErrors.invalidCredentials.code;

/** The code of a right password that still needs a second factor. */
export const MFA_REQUIRED: AccountErrorCode = signInErrors.mfaRequired.code;

/** The code of a passkey registration whose response does not verify. */
export const PASSKEY_INVALID: AccountErrorCode = passkeyErrors.passkeyInvalid.code;

/** The code of a credential change without a recent, full sign-in. */
export const REAUTHENTICATION_REQUIRED: AccountErrorCode =
  signInErrors.reauthenticationRequired.code;

/** The code of a credential change asked with an API key, which never may. */
export const API_KEY_NOT_ALLOWED: AccountErrorCode = signInErrors.apiKeyNotAllowed.code;
