import type { Authenticate } from "@tessera/http";
import type { BearerAuthenticator, BearerIdentity } from "./bearer-authenticator.js";
import { unauthorizedResponse } from "./unauthorized-response.js";

/**
 * The `authenticate` option of route groups that take a bearer token (records, jobs,
 * GraphQL): the token's identity, or the 401 of {@link unauthorizedResponse}, in the request's
 * language (`context.locale`).
 */
export function bearerAuthentication<U>(
  authenticator: BearerAuthenticator<U>,
): Authenticate<BearerIdentity<U>> {
  return async (request, context) => {
    const identity = await authenticator.authenticate(request);
    return identity.ok
      ? { ok: true, value: identity.value }
      : { ok: false, response: unauthorizedResponse(context.locale) };
  };
}
