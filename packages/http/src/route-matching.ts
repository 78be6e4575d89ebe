import type { Route, RouteContext } from "./route.js";

/** A route that matched a request, with its decoded path parameters. */
export interface RouteMatch<C extends RouteContext> {
  readonly route: Route<C>;
  readonly params: Readonly<Record<string, string>>;
}

function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

function staticSegments(path: string): number {
  return splitPath(path).filter((segment) => !segment.startsWith(":")).length;
}

/**
 * The routes in the order a first-match router must see them: more static segments first, so
 * `/sessions/others/delete` wins over `/sessions/:id/delete` (stable otherwise). Adapters
 * that register routes on a framework's router (Hono, Express) register them in this order.
 */
export function orderRoutes<R extends { readonly path: string }>(routes: readonly R[]): R[] {
  return [...routes].sort((a, b) => staticSegments(b.path) - staticSegments(a.path));
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Matches requests against routes, the way adapters without a router of their own need it
 * (Node's `http`, Next.js catch-all handlers, Workers). A path segment `:name` matches one
 * non-empty segment; routes are tried in {@link orderRoutes} order.
 * Written here rather than taken from a router package: it is 50 lines and keeps the
 * package's install small.
 */
export function createRouteMatcher<C extends RouteContext>(
  routes: readonly Route<C>[],
): (method: string, pathname: string) => RouteMatch<C> | undefined {
  const compiled = orderRoutes(routes).map((route) => ({ route, segments: splitPath(route.path) }));

  return (method, pathname) => {
    const wanted = method === "HEAD" ? "GET" : method;
    const segments = splitPath(pathname);
    for (const candidate of compiled) {
      if (candidate.route.method !== wanted) continue;
      if (candidate.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let matched = true;
      for (const [index, pattern] of candidate.segments.entries()) {
        const segment = segments[index] as string;
        if (pattern.startsWith(":")) {
          const value = decodeSegment(segment);
          if (value === undefined) {
            matched = false;
            break;
          }
          params[pattern.slice(1)] = value;
        } else if (pattern !== segment) {
          matched = false;
          break;
        }
      }
      if (matched) return { route: candidate.route, params };
    }
    return undefined;
  };
}

/**
 * One fetch-style handler for a list of routes: the matching route's response, or undefined
 * when none matches (answer your own 404, or pass the request on). `clientAddress` is
 * whatever your platform knows (see {@link clientIp}); `"unknown"` when omitted.
 */
export function routeRequests<C extends RouteContext>(
  routes: readonly Route<C>[],
): (
  request: Request,
  context?: Omit<C, "params" | "clientAddress"> & { readonly clientAddress?: string },
) => Promise<Response | undefined> {
  const match = createRouteMatcher(routes);
  return async (request, context) => {
    const found = match(request.method, new URL(request.url).pathname);
    if (!found) return undefined;
    const full = {
      ...context,
      clientAddress: context?.clientAddress ?? "unknown",
      params: found.params,
    } as unknown as C;
    const response = await found.route.handle(request, full);
    return request.method === "HEAD" ? new Response(null, response) : response;
  };
}
