import type { Authenticate, RouteContext } from "@tessera/http";
import type { Permission } from "../roles.js";
import type { OrganizationCaller } from "./organization-key-authentication.js";
import { findCallerMembership, type OrganizationAccess } from "./organization-member.js";

/**
 * The owner id an organization's webhook endpoints, messages and record events are stored
 * under: minus its id. A user's are stored under the user's id, so the two never meet in one
 * store (organization 7 is -7, user 7 is 7).
 */
export function organizationEndpointOwnerId(organizationId: number): number {
  return -organizationId;
}

/**
 * An owner of webhook endpoints, keys or records as `@tessera/outbound/routes` takes it
 * (`EndpointOwner`), declared here by shape so this package needs not import it.
 */
export interface OrganizationOwner {
  /** {@link organizationEndpointOwnerId} of the organization's id. */
  readonly id: number;
  /** `org:<id>`: every member's requests count against the organization's limits together. */
  readonly rateLimitKey: string;
  /** The signed-in member's address, for a page's header; none for a key. */
  readonly signedInEmail?: string | undefined;
}

/** What {@link organizationOwner} is made of. */
export interface OrganizationOwnerOptions<C extends RouteContext> extends OrganizationAccess {
  /**
   * Who the request acts for (`bearerAuthentication(bearer)`, or `organizationCallers(...)` to
   * let the organization's keys in too); its refusal is the answer.
   */
  readonly authenticate: Authenticate<
    OrganizationCaller<{ readonly id: number; readonly email: string }>,
    C
  >;
  /** What the member's role must allow; default `webhooks:manage`. */
  readonly permission?: Permission | undefined;
}

/**
 * The organization of the path's `:slug` as the owner of what the routes act on, for its
 * members whose role has the permission (and its keys whose role has it, with
 * `organizationCallers`): an `EndpointOwnerResolver` for `outboundRoutes` with
 * `basePath: "/api/orgs/:slug"`. A non-member's is a 404, a missing permission a 403, both JSON.
 * Its `id` is {@link organizationEndpointOwnerId} of the organization's, so that the endpoints of
 * organization 7 and of user 7 stay apart in one outbound store.
 */
export function organizationOwner<C extends RouteContext>(
  options: OrganizationOwnerOptions<C>,
): Authenticate<{ readonly owner: OrganizationOwner }, C> {
  const permission = options.permission ?? "webhooks:manage";
  return async (request, context) => {
    const who = await options.authenticate(request, context);
    if (!who.ok) return who;
    const slug = context.params.slug ?? "";
    const member = await findCallerMembership(options, slug, who.value, permission, context.locale);
    if (!member.ok) return member;
    const { id } = member.value.organization;
    const email = who.value.user?.email;
    const owner = {
      id: organizationEndpointOwnerId(id),
      rateLimitKey: `org:${id}`,
      ...(email === undefined ? {} : { signedInEmail: email }),
    };
    return { ok: true, value: { owner } };
  };
}
