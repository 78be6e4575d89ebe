import type { RouteContext, RouteMiddleware } from "@tessera/http";
import { BUILT_IN_AREAS } from "../roles.js";
import { type OrganizationAccess, organizationMember } from "./organization-member.js";

/** What a record route does, as `@tessera/records` names it (`RecordAction`). */
export type OrganizationRecordAction = "read" | "create" | "update" | "delete";

/** A request of a signed-in user, as the record routes authenticate it. */
type SignedIn = RouteContext & { readonly user: { readonly id: number } };

/** What the record handlers then act for: the organization, and the member who creates. */
interface OrganizationRecordOwner {
  readonly ownerId: number;
  readonly createdBy: number;
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
  ): RouteMiddleware<SignedIn, SignedIn & OrganizationRecordOwner>;
}

/**
 * The records of the path's organization (`/api/orgs/:slug/projects`), for a model with
 * `owner: "organization"`: pass it as `scope` to `jsonRecordRoutes`. Each route passes the
 * membership check with the model's permission for its action (`projects:read`,
 * `projects:create`, …, which a role's `records:<action>` also grants): a non-member gets a 404
 * as for no such organization, a member whose role lacks it a 403 naming it. The records are
 * then the organization's, and a new one's `created_by` is the member.
 * @throws {TypeError} (on building the routes) for a model whose table is named like a built-in
 * permission area (`members`, `keys`…), whose permissions would mean something else.
 */
export function organizationRecords(access: OrganizationAccess): OrganizationRecordScope {
  return {
    owner: "organization",
    pathPrefix: "/orgs/:slug",
    ownerFor(action, model) {
      if (BUILT_IN_AREAS.has(model.table)) {
        throw new TypeError(
          `organizationRecords: model ${model.name}'s table \`${model.table}\` is a permission area of organizations; name the table otherwise`,
        );
      }
      const member = organizationMember<SignedIn>(access, `${model.table}:${action}`);
      return (next, route) =>
        member(
          (request, context) =>
            next(request, {
              ...context,
              ownerId: context.organization.id,
              createdBy: context.user.id,
            }),
          route,
        );
    },
  };
}
