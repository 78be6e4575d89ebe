import type { HttpErrorCode } from "@tessera/http";

/**
 * The `error.code`s the account routes answer with: `@tessera/http`'s, and
 * `invalid_credentials` for a wrong email or password (the 401 of `POST /api/auth/token`, the
 * 403 of `DELETE /api/auth/me`), which a client tells apart from a missing bearer token, and
 * `mfa_required` for a right password of a user with a second factor (the 403 of
 * `POST /api/auth/token` that carries the `mfa_token`), and `passkey_invalid` for a new passkey
 * whose response does not verify (the 400 of `POST /api/auth/passkeys`), and the two 403s of a
 * route that changes credentials or factors: `reauthentication_required` (no recent, full
 * sign-in) and `api_key_not_allowed` (an API key never manages credentials).
 */
export type AccountErrorCode =
  | HttpErrorCode
  | "invalid_credentials"
  | "mfa_required"
  | "passkey_invalid"
  | "reauthentication_required"
  | "api_key_not_allowed";

/** The code of a refused email and password. */
export const INVALID_CREDENTIALS: AccountErrorCode = "invalid_credentials";

/** The code of a right password that still needs a second factor. */
export const MFA_REQUIRED: AccountErrorCode = "mfa_required";

/** The code of a passkey registration whose response does not verify. */
export const PASSKEY_INVALID: AccountErrorCode = "passkey_invalid";

/** The code of a credential change without a recent, full sign-in. */
export const REAUTHENTICATION_REQUIRED: AccountErrorCode = "reauthentication_required";

/** The code of a credential change asked with an API key, which never may. */
export const API_KEY_NOT_ALLOWED: AccountErrorCode = "api_key_not_allowed";
