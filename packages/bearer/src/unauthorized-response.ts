import { unauthorized } from "@tessera/http";

/**
 * The answer to every bearer failure: 401, `WWW-Authenticate: Bearer` and the JSON
 * error body `{"error":{"message":"Unauthorized","status":401}}`. It is the same whatever
 * failed, so a client cannot tell a revoked key from an unknown one.
 */
export function unauthorizedResponse(): Response {
  return unauthorized({ "WWW-Authenticate": "Bearer" });
}
