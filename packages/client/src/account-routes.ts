/** The account routes the client's own calls use (docs/routes.md). */
export const ACCOUNT_ROUTES = {
  signUp: "/api/auth/signup",
  token: "/api/auth/token",
  refresh: "/api/auth/token/refresh",
  secondFactor: "/api/auth/token/mfa",
  secondFactorPasskeyOptions: "/api/auth/token/mfa/options",
  passkeys: "/api/auth/passkeys",
  passkeyOptions: "/api/auth/passkeys/options",
  passkeyLogin: "/api/auth/passkeys/login",
  passkeyLoginOptions: "/api/auth/passkeys/login/options",
} as const;
