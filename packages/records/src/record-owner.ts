import type { RouteContext, RouteMiddleware } from "@tessera/http";
import type { RecordContext, RecordUser } from "./record-options.js";

/**
 * A route middleware making the authenticated user the owner the record handlers act for
 * (`context.ownerId`): records are always that user's own, and the owner never comes from a
 * body. It goes after `authenticated`, which puts `user` in the context.
 */
export function recordOwner<C extends RouteContext & RecordUser>(): RouteMiddleware<
  C,
  C & RecordContext
> {
  return (next) => (request, context) => next(request, { ...context, ownerId: context.user.id });
}
