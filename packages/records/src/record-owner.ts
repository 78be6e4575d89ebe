import type { Model, RecordOwnerKind } from "@tessera/fields";
import { type RouteContext, type RouteMiddleware, unauthorized } from "@tessera/http";
import type { RecordCaller, RecordContext } from "./record-options.js";

/** What a record route does with the owner's records: what a member's role must allow. */
export type RecordAction = "read" | "create" | "update" | "delete";

/** The context a record scope starts from: the route's, with who `authenticate` found. */
export type RecordScopeInput = RouteContext & RecordCaller;

/**
 * Whose records a model's routes act on, and where they live. The default, {@link userRecords},
 * makes every record the signed-in user's own; `organizationRecords` of
 * `@tessera/organizations/routes` serves an organization's (`owner: "organization"` models)
 * under `/orgs/:slug`, for its members whose role allows the action.
 */
export interface RecordScope {
  /** Whose records it scopes: must be the model's `owner`. */
  readonly owner: RecordOwnerKind;
  /**
   * Put before the model's path: `""` for a user's records (`/api/notes`, `/notes`),
   * `/orgs/:slug` for an organization's (`/api/orgs/:slug/projects`, `/orgs/:slug/projects`).
   */
  readonly pathPrefix: string;
  /**
   * The middleware finding the owner a request of `action` acts for (`context.ownerId`, and
   * `createdBy` for an organization's): its refusal (a 401, 404 or 403) is the answer. It runs
   * after `authenticate`, which put `user` (or, for an organization's, its key) in the context.
   */
  ownerFor(
    action: RecordAction,
    model: Model,
  ): RouteMiddleware<RecordScopeInput, RecordScopeInput & RecordContext>;
}

/**
 * A route middleware making the authenticated user the owner the record handlers act for
 * (`context.ownerId`): records are always that user's own, and the owner never comes from a
 * body. It goes after `authenticated`, which puts `user` in the context; a caller without a
 * user (an organization's key) owns no user's records: 401.
 */
export function recordOwner<C extends RouteContext & RecordCaller>(): RouteMiddleware<
  C,
  C & RecordContext
> {
  return (next) => async (request, context) =>
    context.user === undefined
      ? unauthorized({ "WWW-Authenticate": "Bearer" }, context.locale)
      : next(request, { ...context, ownerId: context.user.id });
}

/**
 * What a route of a model's routes at `base` does: reading (GET), creating (POST to `base`),
 * deleting a record (DELETE of `base/:id`), else updating it (PATCH, and adding or removing
 * its files: a viewer may download an attachment, not replace it).
 */
export function recordActionOf(method: string, path: string, base: string): RecordAction {
  if (method === "GET" || method === "HEAD") return "read";
  if (method === "POST" && path === base) return "create";
  if (method === "DELETE" && path === `${base}/:id`) return "delete";
  return "update";
}

/** A new record's values, with `created_by` when the scope names a creator (an organization's). */
export function withCreator<V extends Record<string, unknown>>(
  values: V,
  context: Pick<RecordContext, "createdBy">,
): V {
  return context.createdBy === undefined ? values : { ...values, created_by: context.createdBy };
}

/** The signed-in user's own records, at the model's own path: the routes' default scope. */
export function userRecords(): RecordScope {
  return { owner: "user", pathPrefix: "", ownerFor: () => recordOwner() };
}

/**
 * The scope `options` asks for, or the user's; throws when it is not for the model's owner
 * (an organization's model served as a user's would have no owner column to scope by).
 */
export function recordScopeOf(model: Model, scope: RecordScope | undefined): RecordScope {
  const chosen = scope ?? userRecords();
  const owner = model.owner ?? "user";
  if (chosen.owner !== owner) {
    throw new TypeError(
      owner === "organization"
        ? `model ${model.name} belongs to organizations: pass \`scope: organizationRecords(...)\` of @tessera/organizations/routes`
        : `model ${model.name} belongs to users: leave out \`scope\`, or declare it with \`owner: "organization"\``,
    );
  }
  return chosen;
}
