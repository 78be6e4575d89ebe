import type { Authenticate, RouteContext } from "@tessera/http";

/** Whose webhook endpoints a request acts on. */
export interface EndpointOwner {
  /** The owner id the endpoints and messages are stored under. */
  readonly id: number;
  /**
   * What the owner's rate limits count by (`user:7`): one owner's JSON routes and pages share
   * it, so the same key must come out of both resolvers.
   */
  readonly rateLimitKey: string;
  /** The signed-in person's email, for the page header; pages need it, JSON routes do not. */
  readonly signedInEmail?: string | undefined;
}

/**
 * Decides whose endpoints a request acts on, or answers the refusal (a 401, a redirect to sign
 * in, a 404 for an organization the requester is not in). The routes never look further.
 */
export type EndpointOwnerResolver<C extends RouteContext = RouteContext> = Authenticate<
  { readonly owner: EndpointOwner },
  C
>;

/**
 * The signed-in user owns the endpoints: wraps an authentication that gives `user` (the bearer
 * one for JSON routes, the session one for pages).
 */
export function userEndpointOwner<C extends RouteContext>(
  authenticate: Authenticate<{ readonly user: { readonly id: number; readonly email: string } }, C>,
): EndpointOwnerResolver<C> {
  return async (request, context) => {
    const who = await authenticate(request, context);
    if (!who.ok) return who;
    const { id, email } = who.value.user;
    return { ok: true, value: { owner: { id, rateLimitKey: `user:${id}`, signedInEmail: email } } };
  };
}
