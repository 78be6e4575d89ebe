import { readBearerToken, touchWhenStale, unauthorizedResponse } from "@tessera/bearer";
import { type Clock, systemClock } from "@tessera/core";
import { sha256Hex } from "@tessera/crypto";
import type { Authenticate, RouteContext } from "@tessera/http";
import type { OrganizationKeyHolder, OrganizationStore } from "../organization-store.js";

/**
 * What every organization key starts with. A user's API key has no prefix, so each kind of key
 * is told apart before any query, and a leaked one is easy to recognize.
 */
export const ORGANIZATION_KEY_PREFIX = "org_";

/** The prefix and the 43 URL-safe characters of a 256-bit `randomToken()`. */
const ORGANIZATION_KEY_SHAPE = /^org_[A-Za-z0-9_-]{43}$/;

/**
 * Who calls a route of an organization: a signed-in user (`user`), or one of the organization's
 * keys (`organizationKey`: the key and the organization it acts for), never both.
 */
export type OrganizationCaller<U> =
  | { readonly user: U; readonly organizationKey?: undefined }
  | { readonly user?: undefined; readonly organizationKey: OrganizationKeyHolder };

/** What {@link organizationCallers} is made of. */
export interface OrganizationCallersOptions<U, C extends RouteContext> {
  /** Where the keys are found by their digest. */
  readonly organizations: Pick<OrganizationStore, "findKeyHolder" | "touchKey">;
  /** How a user signs their requests (`bearerAuthentication(bearer)`): every other token. */
  readonly authenticate: Authenticate<{ readonly user: U }, C>;
  readonly clock?: Clock | undefined;
}

/**
 * The authentication of the routes an organization's keys may call (its records, its webhook
 * endpoints): a bearer token with the {@link ORGANIZATION_KEY_PREFIX} is looked up as a key by
 * its SHA-256 digest (an unknown or revoked one is the bearer 401), any other goes to
 * `authenticate`. Pass what it finds to `findCallerMembership`, which holds a key to its own
 * organization and role. Every other route keeps the user's authentication, which answers a key
 * with the same 401 as any unknown token.
 */
export function organizationCallers<U, C extends RouteContext>(
  options: OrganizationCallersOptions<U, C>,
): Authenticate<OrganizationCaller<U>, C> {
  const clock = options.clock ?? systemClock;
  return async (request, context) => {
    const token = readBearerToken(request.headers.get("authorization"));
    if (!token.ok || !token.value.startsWith(ORGANIZATION_KEY_PREFIX)) {
      const who = await options.authenticate(request, context);
      return who.ok ? { ok: true, value: { ...who.value, organizationKey: undefined } } : who;
    }
    // The secret is only ever hashed: the lookup compares digests, whose timing tells nothing
    // an attacker can steer towards the secret.
    const holder = ORGANIZATION_KEY_SHAPE.test(token.value)
      ? await options.organizations.findKeyHolder(sha256Hex(token.value))
      : undefined;
    if (!holder) return { ok: false, response: unauthorizedResponse(context.locale) };
    await touchWhenStale(holder.key.lastUsedAt, clock(), (usedAt, staleAt) =>
      options.organizations.touchKey(holder.key.id, usedAt, staleAt),
    );
    return { ok: true, value: { organizationKey: holder } };
  };
}
