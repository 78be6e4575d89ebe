import { fail, ok, type Result } from "@tessera/core";

/** Why {@link readBearerToken} found no token. */
export type AuthorizationHeaderFailure = "missing-header" | "malformed-header";

// RFC 6750 §2.1: the scheme, one or more spaces, one b64token. A second token, a second
// header (joined by Fetch with ", "), another scheme or an empty token all fail to match.
const BEARER_CREDENTIALS = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * The token of an `Authorization: Bearer <token>` header value (scheme in any letter case).
 * Pass `request.headers.get("authorization")`.
 */
export function readBearerToken(
  header: string | null | undefined,
): Result<string, AuthorizationHeaderFailure> {
  if (header === null || header === undefined || header === "") return fail("missing-header");
  const match = BEARER_CREDENTIALS.exec(header);
  return match ? ok(match[1]!) : fail("malformed-header");
}
