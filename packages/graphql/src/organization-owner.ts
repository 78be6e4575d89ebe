import type { Locale } from "@tessera/core";
import type { Model } from "@tessera/fields";
import type { RecordAction, RecordContext } from "@tessera/records";
import { forbiddenError, notFoundError } from "./record-errors.js";

/** What an operation on an organization's records asks its {@link OrganizationOwnerResolver}. */
export interface OrganizationOwnerRequest {
  /** The signed-in user the request authenticated as. */
  readonly userId: number;
  /** The operation's `organization` argument: the organization's slug, as a client sent it. */
  readonly slug: string;
  /** What the operation does: a list or a record is `read`, each mutation its own. */
  readonly action: RecordAction;
  readonly model: Model;
  /** The language of the refusal's message; English when absent. */
  readonly locale?: Locale | undefined;
}

/**
 * The organization an operation acts for (`ownerId`, its id) and the member who acts
 * (`createdBy`, a new record's `created_by`); or the refusal: 404 for a non-member and for no
 * such organization alike, 403 for a member whose role lacks the action's permission, with a
 * message naming it.
 */
export type OrganizationOwnerResult =
  | { readonly ok: true; readonly ownerId: number; readonly createdBy: number }
  | { readonly ok: false; readonly status: 404 | 403; readonly message: string };

/**
 * Finds the organization an operation on an organization's records (a model with
 * `owner: "organization"`) acts for, as the JSON record routes' scope does:
 * `resolveOrganizationRecordOwner(access)` of `@tessera/organizations/routes` is one.
 */
export type OrganizationOwnerResolver = (
  request: OrganizationOwnerRequest,
) => Promise<OrganizationOwnerResult>;

/**
 * The context an operation of `action` on `model`'s records in the organization `slug` runs
 * with: the organization as owner and the user as `createdBy`, from `context`, whose `ownerId`
 * is the signed-in user. Throws the refusal as a GraphQL error: `not_found` for any 404 (the
 * package's own `Not found`, so a stranger learns nothing a missing organization would not
 * tell), `forbidden` with the resolver's message for a 403.
 */
export async function organizationContext(
  resolve: OrganizationOwnerResolver,
  model: Model,
  action: RecordAction,
  slug: string,
  context: RecordContext,
): Promise<RecordContext> {
  const { locale } = context;
  const found = await resolve({ userId: context.ownerId, slug, action, model, locale });
  if (!found.ok) {
    throw found.status === 403 ? forbiddenError(found.message) : notFoundError(locale);
  }
  return {
    ownerId: found.ownerId,
    createdBy: found.createdBy,
    ...(locale === undefined ? {} : { locale }),
  };
}
