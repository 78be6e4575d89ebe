// The JSON routes that change credentials or factors, which neither an API key nor an operator
// acting as the user may call: a route added later joins this list and both tests walk it.
import { PASSWORD } from "./two-factor-app.js";

/** Every JSON route that manages credentials or factors, with a body it accepts. */
export const CREDENTIAL_ROUTES: readonly [method: string, path: string, body: unknown][] = [
  ["POST", "/api/auth/keys", { name: "ci" }],
  ["POST", "/api/auth/passkeys/options", {}],
  ["POST", "/api/auth/passkeys", { response: {} }],
  ["DELETE", "/api/auth/passkeys/1", {}],
  ["POST", "/api/auth/mfa/totp", { password: PASSWORD }],
  ["DELETE", "/api/auth/mfa/totp", { password: PASSWORD }],
  ["POST", "/api/auth/mfa/backup_codes", { password: PASSWORD }],
  ["DELETE", "/api/auth/me", { password: PASSWORD }],
  ["POST", "/api/auth/reauthenticate", { password: PASSWORD }],
  ["POST", "/api/auth/password", { current_password: PASSWORD, password: "a new passphrase" }],
  ["POST", "/api/auth/email", { email: "new-address@example.com", current_password: PASSWORD }],
];
