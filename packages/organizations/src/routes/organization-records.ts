import type { Locale } from "@tessera/core";
import { httpMessages, type RouteContext, type RouteMiddleware } from "@tessera/http";
import { BUILT_IN_AREAS } from "../roles.js";
import {
  findCallerMembership,
  findOrganizationMembership,
  type OrganizationAccess,
  type OrganizationCallerShape,
} from "./organization-member.js";
import { organizationMessages } from "./organization-messages.js";

/** What a record route does, as `@tessera/records` names it (`RecordAction`). */
export type OrganizationRecordAction = "read" | "create" | "update" | "delete";

/** A request as the record routes authenticated it: a signed-in user, or a key (JSON only). */
type Caller = RouteContext & OrganizationCallerShape;

/** What the record handlers then act for: the organization, and the member who creates. */
interface OrganizationRecordOwner {
  readonly ownerId: number;
  /** The member; none for a key, whose records have no `created_by`. */
  readonly createdBy?: number;
}

/**
 * An organization's records as `@tessera/records`' routes take them (their `RecordScope`),
 * declared here by shape so this package needs not import records.
 */
export interface OrganizationRecordScope {
  readonly owner: "organization";
  /** `/orgs/:slug`: the routes are `/api/orgs/:slug/<table>`. */
  readonly pathPrefix: string;
  ownerFor(
    action: OrganizationRecordAction,
    model: { readonly name: string; readonly table: string },
  ): RouteMiddleware<Caller, Caller & OrganizationRecordOwner>;
}

/**
 * The records of the path's organization (`/api/orgs/:slug/projects`), for a model with
 * `owner: "organization"`: pass it as `scope` to `jsonRecordRoutes`. Each route passes the
 * membership check with the model's permission for its action (`projects:read`,
 * `projects:create`, …, which a role's `records:<action>` also grants): a non-member gets a 404
 * as for no such organization, a member whose role lacks it a 403 naming it. The records are
 * then the organization's, and a new one's `created_by` is the member. Authenticated with
 * `organizationCallers`, the JSON routes also take the organization's keys, with the key's role
 * (another organization's slug is a 404) and no `created_by`.
 * @throws {TypeError} (on building the routes) for a model whose table is named like a built-in
 * permission area (`members`, `keys`…), whose permissions would mean something else.
 */
export function organizationRecords(access: OrganizationAccess): OrganizationRecordScope {
  return {
    owner: "organization",
    pathPrefix: "/orgs/:slug",
    ownerFor(action, model) {
      assertRecordArea("organizationRecords", model);
      const permission = `${model.table}:${action}`;
      return (next) => async (request, context) => {
        const slug = context.params.slug ?? "";
        const member = await findCallerMembership(
          access,
          slug,
          context,
          permission,
          context.locale,
        );
        if (!member.ok) return member.response;
        const ownerId = member.value.organization.id;
        const createdBy = context.user?.id;
        return next(request, {
          ...context,
          ownerId,
          ...(createdBy === undefined ? {} : { createdBy }),
        });
      };
    },
  };
}

/** What an operation on an organization's records asks of {@link resolveOrganizationRecordOwner}. */
interface OrganizationRecordOwnerRequest {
  /** The signed-in user. */
  readonly userId: number;
  /** The organization's slug, as the client sent it. */
  readonly slug: string;
  readonly action: OrganizationRecordAction;
  readonly model: { readonly name: string; readonly table: string };
  /** The language of a refusal's message. */
  readonly locale?: Locale | undefined;
}

/**
 * The organization and member an operation acts for, or its refusal as data: the status and
 * message of the JSON routes' 404 or 403.
 */
type OrganizationRecordOwnerResult =
  | { readonly ok: true; readonly ownerId: number; readonly createdBy: number }
  | { readonly ok: false; readonly status: 404 | 403; readonly message: string };

/**
 * Finds whom an operation on an organization's records acts for, as `@tessera/graphql` takes it
 * (its `OrganizationOwnerResolver`), declared here by shape so this package needs not import it.
 */
export type OrganizationRecordOwnerResolver = (
  request: OrganizationRecordOwnerRequest,
) => Promise<OrganizationRecordOwnerResult>;

/**
 * The membership check of {@link organizationRecords} for an API that is not a set of routes:
 * pass it as `organizationOwner` to `graphqlRoutes` of `@tessera/graphql`. Each call is that
 * check with the model's permission for the action (`projects:create`, which a role's
 * `records:create` also grants): a non-member and no such organization alike are a 404, a
 * member whose role lacks it a 403 whose message names it (`You need the projects:create
 * permission.`), both in the request's locale, with the JSON routes' very words; otherwise
 * the organization's id is the owner and the member is `createdBy`.
 * @throws {TypeError} (when called) for a model whose table is named like a built-in permission
 * area (`members`, `keys`…), as `organizationRecords` refuses it.
 */
export function resolveOrganizationRecordOwner(
  access: OrganizationAccess,
): OrganizationRecordOwnerResolver {
  return async ({ userId, slug, action, model, locale }) => {
    assertRecordArea("resolveOrganizationRecordOwner", model);
    const permission = `${model.table}:${action}`;
    const member = await findOrganizationMembership(access, slug, userId, permission, locale);
    if (member.ok) return { ok: true, ownerId: member.value.organization.id, createdBy: userId };
    // The routes' own words: `permissionRefusal`'s for a 403, `notFound`'s for a 404.
    return member.response.status === 403
      ? {
          ok: false,
          status: 403,
          message: organizationMessages.text(locale, "organizations.permission_required", {
            permission,
          }),
        }
      : { ok: false, status: 404, message: httpMessages.text(locale, "http.not_found") };
  };
}

/** Refuses a model whose table is a built-in permission area: its permissions mean more. */
function assertRecordArea(
  caller: string,
  model: { readonly name: string; readonly table: string },
): void {
  if (BUILT_IN_AREAS.has(model.table)) {
    throw new TypeError(
      `${caller}: model ${model.name}'s table \`${model.table}\` is a permission area of organizations; name the table otherwise`,
    );
  }
}
