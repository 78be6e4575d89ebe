import type { RouteContext, RouteMethod } from "./route.js";
import type { RouteMiddleware, RouteRefusal } from "./route-middleware.js";

const METHODS_WITH_BODY = new Set<RouteMethod>(["POST", "PUT", "PATCH", "DELETE"]);

/** Options of {@link bodyLimit}. */
export interface BodyLimitOptions<C extends RouteContext> {
  /** The largest body accepted, in bytes; a function when it depends on the request's type. */
  readonly maximumBytes: number | ((request: Request) => number);
  /**
   * The route's own answer to a body over the limit, given the limit (the same answer its body
   * reader gives), so a request is answered alike whether its size was declared or found while
   * reading.
   */
  readonly refusal: RouteRefusal<C, number>;
}

/**
 * A middleware refusing a request whose declared `Content-Length` is above the route's limit
 * before its handler runs, without reading a byte. A body without a usable `Content-Length`
 * goes on: the route's body reader still cuts it off at the limit while streaming. Routes
 * whose method carries no body are handed back untouched.
 */
export function bodyLimit<C extends RouteContext = RouteContext>(
  options: BodyLimitOptions<C>,
): RouteMiddleware<C, C> {
  const limitOf =
    typeof options.maximumBytes === "number"
      ? (
          (bytes: number) => () =>
            bytes
        )(options.maximumBytes)
      : options.maximumBytes;
  return (next, route) => {
    if (!METHODS_WITH_BODY.has(route.method)) return next;
    return async (request, context) => {
      const declared = request.headers.get("content-length")?.trim();
      const maximumBytes = limitOf(request);
      if (declared && /^[0-9]+$/.test(declared) && Number(declared) > maximumBytes) {
        return options.refusal(request, context, maximumBytes);
      }
      return next(request, context);
    };
  };
}
