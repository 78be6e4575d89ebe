import type { IssuedRefreshToken } from "@tessera/bearer";
import type { Locale } from "@tessera/core";
import { jsonAnswer, NO_STORE } from "@tessera/http";

/**
 * The body of a granted bearer token: `{ token, token_type: "Bearer", expires_in }`, and
 * `refresh_token` with `refresh_expires_in` when one was issued, with the language headers of
 * the request's `locale` when it has one, and `Cache-Control: no-store` (RFC 6749, §5.1):
 * secrets shown once, which no cache may keep.
 */
export function tokenAnswer(
  issued: { readonly token: string; readonly expiresIn: number },
  locale?: Locale,
  refresh?: IssuedRefreshToken,
): Response {
  const body = {
    token: issued.token,
    token_type: "Bearer",
    expires_in: issued.expiresIn,
    ...(refresh && {
      refresh_token: refresh.refreshToken,
      refresh_expires_in: refresh.expiresIn,
    }),
  };
  return jsonAnswer(body, { locale, headers: NO_STORE });
}
