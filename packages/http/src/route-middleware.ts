import type { Route, RouteContext, RouteHandler, RouteMethod } from "./route.js";

/** What a middleware knows of the route it wraps (it is applied once per route, at build time). */
export interface RouteInfo {
  readonly method: RouteMethod;
  readonly path: string;
}

/**
 * A function from a handler to a handler. `Outer` is the context the wrapped route is called
 * with; `Inner` the context the handler it wraps gets (a middleware that adds a user has
 * `Inner = Outer & { user: U }`). It runs once per route when the routes are built, so it can
 * decide from `route` alone (a safe method needs no cross-site check) and return `next` as it is.
 */
export type RouteMiddleware<
  Outer extends RouteContext = RouteContext,
  Inner extends RouteContext = Outer,
> = (next: RouteHandler<Inner>, route: RouteInfo) => RouteHandler<Outer>;

/**
 * A middleware that leaves the context as it is, whatever it holds (a cross-site check, a rate
 * limit, headers): it fits any place in a list.
 */
export type PassThroughMiddleware<Base extends RouteContext = RouteContext> = <C extends Base>(
  next: RouteHandler<C>,
  route: RouteInfo,
) => RouteHandler<C>;

/**
 * How a middleware that refuses a request answers (a JSON error, or a page rendered with the
 * context): `detail` is what it measured (the seconds to wait, the largest body allowed).
 */
export type RouteRefusal<C extends RouteContext, Detail> = (
  request: Request,
  context: C,
  detail: Detail,
) => Response | Promise<Response>;

type AnyMiddleware = RouteMiddleware<RouteContext, RouteContext>;

function applyAll(middleware: readonly AnyMiddleware[], handle: RouteHandler, route: RouteInfo) {
  let wrapped = handle;
  for (let index = middleware.length - 1; index >= 0; index -= 1) {
    wrapped = (middleware[index] as AnyMiddleware)(wrapped, route);
  }
  return wrapped;
}

/**
 * The routes with `middleware` applied, the first listed outermost (it runs first and sees the
 * answer last). Each middleware's inner context is the next one's outer context, so a handler
 * that reads `context.user` only compiles behind a middleware that puts it there.
 *
 * @example
 * ```ts
 * import { crossSiteCheck, type Route, withMiddleware } from "@tessera/http";
 *
 * const routes: Route[] = [{ method: "POST", path: "/notes", handle: async () => new Response("ok") }];
 * const guarded = withMiddleware(routes, crossSiteCheck({ allowedOrigins: [] }));
 * ```
 */
export function withMiddleware<C0 extends RouteContext, C1 extends RouteContext>(
  routes: readonly Route<C1>[],
  m1: RouteMiddleware<C0, C1>,
): Route<C0>[];
export function withMiddleware<
  C0 extends RouteContext,
  C1 extends RouteContext,
  C2 extends RouteContext,
>(
  routes: readonly Route<C2>[],
  m1: RouteMiddleware<C0, C1>,
  m2: RouteMiddleware<C1, C2>,
): Route<C0>[];
export function withMiddleware<
  C0 extends RouteContext,
  C1 extends RouteContext,
  C2 extends RouteContext,
  C3 extends RouteContext,
>(
  routes: readonly Route<C3>[],
  m1: RouteMiddleware<C0, C1>,
  m2: RouteMiddleware<C1, C2>,
  m3: RouteMiddleware<C2, C3>,
): Route<C0>[];
export function withMiddleware<
  C0 extends RouteContext,
  C1 extends RouteContext,
  C2 extends RouteContext,
  C3 extends RouteContext,
  C4 extends RouteContext,
>(
  routes: readonly Route<C4>[],
  m1: RouteMiddleware<C0, C1>,
  m2: RouteMiddleware<C1, C2>,
  m3: RouteMiddleware<C2, C3>,
  m4: RouteMiddleware<C3, C4>,
): Route<C0>[];
export function withMiddleware<
  C0 extends RouteContext,
  C1 extends RouteContext,
  C2 extends RouteContext,
  C3 extends RouteContext,
  C4 extends RouteContext,
  C5 extends RouteContext,
>(
  routes: readonly Route<C5>[],
  m1: RouteMiddleware<C0, C1>,
  m2: RouteMiddleware<C1, C2>,
  m3: RouteMiddleware<C2, C3>,
  m4: RouteMiddleware<C3, C4>,
  m5: RouteMiddleware<C4, C5>,
): Route<C0>[];
export function withMiddleware(
  routes: readonly Route<RouteContext>[],
  ...middleware: AnyMiddleware[]
): Route<RouteContext>[] {
  return routes.map(({ method, path, handle }) => ({
    method,
    path,
    handle: applyAll(middleware, handle, { method, path }),
  }));
}

/**
 * One middleware made of several, the first listed outermost, as {@link withMiddleware} applies
 * them: a route group's fixed stack (session, cross-site refusal, page headers) handed out as
 * one piece.
 */
export function composeMiddleware<
  C0 extends RouteContext,
  C1 extends RouteContext,
  C2 extends RouteContext,
>(m1: RouteMiddleware<C0, C1>, m2: RouteMiddleware<C1, C2>): RouteMiddleware<C0, C2>;
export function composeMiddleware<
  C0 extends RouteContext,
  C1 extends RouteContext,
  C2 extends RouteContext,
  C3 extends RouteContext,
>(
  m1: RouteMiddleware<C0, C1>,
  m2: RouteMiddleware<C1, C2>,
  m3: RouteMiddleware<C2, C3>,
): RouteMiddleware<C0, C3>;
export function composeMiddleware(...middleware: AnyMiddleware[]): AnyMiddleware {
  return (next, route) => applyAll(middleware, next, route);
}
