import type { Locale } from "@tessera/core";
import { unauthorized } from "@tessera/http";

/**
 * The answer to every bearer failure: 401, `WWW-Authenticate: Bearer` and the JSON error body
 * `{"error":{"code":"unauthenticated","message":"Unauthorized","status":401}}`, its message in
 * `locale` when given. It is the same whatever failed, so a client cannot tell a revoked key
 * from an unknown one.
 */
export function unauthorizedResponse(locale?: Locale | undefined): Response {
  return unauthorized({ "WWW-Authenticate": "Bearer" }, locale);
}
