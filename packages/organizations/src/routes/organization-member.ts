import type { Locale } from "@tessera/core";
import {
  type Authentication,
  notFound,
  type RouteContext,
  type RouteMiddleware,
} from "@tessera/http";
import type { Organization } from "../organization.js";
import type { OrganizationKeyHolder, OrganizationStore } from "../organization-store.js";
import { defineRoles, type Permission, type Roles } from "../roles.js";
import { SLUG_LENGTH, SLUG_SHAPE, slugProblem } from "../slug.js";
import { organizationErrorAnswer, organizationErrors } from "./organization-errors.js";

/** Where a membership is looked up, and what its role may do. */
export interface OrganizationAccess {
  readonly organizations: OrganizationStore;
  /** The app's roles; default `defineRoles()`, the built-in ones. */
  readonly roles?: Roles | undefined;
}

/** What {@link organizationMember} adds to a request's context: the organization and the role. */
export interface OrganizationMembership {
  readonly organization: Organization;
  readonly role: string;
}

const BUILT_IN = defineRoles();

/** The roles of `access`: its own, or the built-in ones. */
export function rolesOf(access: OrganizationAccess): Roles {
  return access.roles ?? BUILT_IN;
}

/** The 403 of a member whose role lacks `permission`, naming it. */
export function permissionRefusal(permission: Permission, locale: Locale | undefined): Response {
  return organizationErrorAnswer(organizationErrors.permissionRequired, locale, { permission });
}

/**
 * The membership of `userId` in the organization called `slug`, in one lookup: a 404 for a
 * non-member and for no such organization alike, a 403 naming `permission` when the role lacks it.
 */
export async function findOrganizationMembership(
  access: OrganizationAccess,
  slug: string,
  userId: number,
  permission: Permission | undefined,
  locale: Locale | undefined,
): Promise<Authentication<OrganizationMembership>> {
  // A slug no organization can have is not looked up: text such as a NUL (`%00`) would make
  // PostgreSQL fail the query. A reserved word is, as it may predate its reservation.
  const problem = slugProblem(slug);
  if (problem === SLUG_LENGTH || problem === SLUG_SHAPE) {
    return { ok: false, response: notFound(locale) };
  }
  const membership = await access.organizations.findMembership(slug, userId);
  if (!membership) return { ok: false, response: notFound(locale) };
  if (permission !== undefined && !rolesOf(access).allows(membership.role, permission)) {
    return { ok: false, response: permissionRefusal(permission, locale) };
  }
  return { ok: true, value: { organization: membership.organization, role: membership.role } };
}

/** Who calls, as `organizationCallers` found them: a user, or a key with its organization. */
export interface OrganizationCallerShape {
  readonly user?: { readonly id: number } | undefined;
  readonly organizationKey?: OrganizationKeyHolder | undefined;
}

/**
 * {@link findOrganizationMembership} for a user or an organization's key: a key acts for its own
 * organization only (any other slug is a 404, as for a non-member) with the role it was given.
 */
export async function findCallerMembership(
  access: OrganizationAccess,
  slug: string,
  caller: OrganizationCallerShape,
  permission: Permission | undefined,
  locale: Locale | undefined,
): Promise<Authentication<OrganizationMembership>> {
  const holder = caller.organizationKey;
  if (holder === undefined) {
    // organizationCallers gives a user whenever it gives no key.
    const userId = caller.user?.id;
    if (userId === undefined) return { ok: false, response: notFound(locale) };
    return findOrganizationMembership(access, slug, userId, permission, locale);
  }
  if (holder.organization.slug !== slug) return { ok: false, response: notFound(locale) };
  const role = holder.key.role;
  if (permission !== undefined && !rolesOf(access).allows(role, permission)) {
    return { ok: false, response: permissionRefusal(permission, locale) };
  }
  return { ok: true, value: { organization: holder.organization, role } };
}

/**
 * The one check every route of an organization passes (`/…/:slug/…`): the signed-in user must
 * be a member (else a 404, as for no such organization) whose role has `permission` (else a
 * 403 naming it); the handler then reads `context.organization` and `context.role`. Put it
 * after the middleware that adds `user`: `withMiddleware(routes, authenticated(signedIn),
 * organizationMember({ organizations }, "records:read"))`.
 */
export function organizationMember<
  C extends RouteContext & { readonly user: { readonly id: number } },
>(
  access: OrganizationAccess,
  permission?: Permission,
): RouteMiddleware<C, C & OrganizationMembership> {
  return (next) => async (request, context) => {
    const { params, user, locale } = context;
    const slug = params.slug ?? "";
    const member = await findOrganizationMembership(access, slug, user.id, permission, locale);
    if (!member.ok) return member.response;
    return next(request, { ...context, ...member.value });
  };
}
