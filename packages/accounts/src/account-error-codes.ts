import type { HttpErrorCode } from "@tessera/http";

/**
 * The `error.code`s the account routes answer with: `@tessera/http`'s, and
 * `invalid_credentials` for a wrong email or password (the 401 of `POST /api/auth/token`, the
 * 403 of `DELETE /api/auth/me`), which a client tells apart from a missing bearer token.
 */
export type AccountErrorCode = HttpErrorCode | "invalid_credentials";

/** The code of a refused email and password. */
export const INVALID_CREDENTIALS: AccountErrorCode = "invalid_credentials";
