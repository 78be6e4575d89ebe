import { loadOnFirstUse } from "@tessera/core";
import type { Route, RouteMethod } from "@tessera/http";

/** Where a lazily built route answers: its method and path, known before it is built. */
export interface LazyRouteShape {
  readonly method: RouteMethod;
  readonly path: string;
}

/**
 * Routes answering at `shapes` whose real routes `build` makes on the first request to any of
 * them, once: requests that come while it runs wait for the same build, and a failed build is
 * tried again by the next request. For parts most deployments never use (GraphQL), so that the
 * app neither loads their libraries nor builds them at start. `build` must give a route for
 * every shape.
 */
export function lazyRoutes(
  shapes: readonly LazyRouteShape[],
  build: () => Promise<readonly Route[]>,
): Route[] {
  const routes = loadOnFirstUse(build);
  return shapes.map(({ method, path }) => ({
    method,
    path,
    handle: async (request, context) => {
      const route = (await routes()).find((one) => one.method === method && one.path === path);
      if (!route) throw new Error(`the lazily built routes have no ${method} ${path}`);
      return route.handle(request, context);
    },
  }));
}
