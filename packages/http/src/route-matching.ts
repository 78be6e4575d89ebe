import type { Route, RouteContext } from "./route.js";

/** A route that matched a request, with its decoded path parameters. */
export interface RouteMatch<C extends RouteContext> {
  readonly route: Route<C>;
  readonly params: Readonly<Record<string, string>>;
}

interface CompiledRoute<C extends RouteContext> {
  readonly route: Route<C>;
  readonly segments: readonly string[];
  /** Static segments count more: `/sessions/others/delete` wins over `/sessions/:id/delete`. */
  readonly staticSegments: number;
}

function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
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
 * non-empty segment; a route with more static segments wins whatever the order of the list.
 * Written here rather than taken from a router package: it is 50 lines and keeps the
 * package's install small.
 */
export function createRouteMatcher<C extends RouteContext>(
  routes: readonly Route<C>[],
): (method: string, pathname: string) => RouteMatch<C> | undefined {
  const compiled: CompiledRoute<C>[] = routes
    .map((route) => {
      const segments = splitPath(route.path);
      const staticSegments = segments.filter((segment) => !segment.startsWith(":")).length;
      return { route, segments, staticSegments };
    })
    .sort((a, b) => b.staticSegments - a.staticSegments);

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
