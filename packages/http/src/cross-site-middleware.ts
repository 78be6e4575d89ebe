import type { Locale } from "@tessera/core";
import { type CrossSiteOptions, checkCrossSiteRequest, crossSiteRefusal } from "./cross-site.js";
import type { RouteMethod } from "./route.js";
import type { PassThroughMiddleware } from "./route-middleware.js";

const UNSAFE_METHODS = new Set<RouteMethod>(["POST", "PUT", "PATCH", "DELETE"]);

/** Options of {@link crossSiteCheck}: the check's, and how a refusal is answered. */
export interface CrossSiteCheckOptions extends CrossSiteOptions {
  /**
   * The answer to a refused request, in the request's locale: {@link crossSiteRefusal}'s JSON
   * envelope by default, `crossSiteRefusalPage` for page routes.
   */
  readonly refusal?: ((locale: Locale | undefined) => Response) | undefined;
}

/**
 * A middleware refusing a cross-site request to a state-changing route (`POST`, `PUT`, `PATCH`,
 * `DELETE`) with the 403 of {@link checkCrossSiteRequest} before its handler runs. On a `GET`
 * route only a WebSocket upgrade is checked (a cross-site page may open one, and the browser
 * sends it with the user's cookies); any other request costs one header lookup.
 */
export function crossSiteCheck(options: CrossSiteCheckOptions = {}): PassThroughMiddleware {
  const refuse = options.refusal ?? crossSiteRefusal;
  return (next, route) => {
    const checked: typeof next = async (request, context) =>
      checkCrossSiteRequest(request, options).ok ? next(request, context) : refuse(context.locale);
    if (UNSAFE_METHODS.has(route.method)) return checked;
    return (request, context) =>
      request.headers.has("upgrade") ? checked(request, context) : next(request, context);
  };
}
