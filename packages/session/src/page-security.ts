import {
  newCspNonce,
  type PageHeaderOptions,
  type PageRouteContext,
  type RouteContext,
  type RouteMiddleware,
  withPageHeaders,
} from "@tessera/http";

/**
 * A route middleware giving each answer its own security headers: a fresh nonce per request
 * (`newCspNonce` of `@tessera/http`) is handed to the handler (`context.cspNonce`, for the
 * page's `<script>` tags) and put in the page's Content-Security-Policy by `withPageHeaders` of
 * `@tessera/http`, whatever framework serves the route. {@link pageSafety} applies it.
 */
export function pageHeaders<C extends RouteContext = RouteContext>(
  options: PageHeaderOptions = {},
): RouteMiddleware<C, C & PageRouteContext> {
  return (next) => async (request, context) => {
    const cspNonce = newCspNonce();
    const response = await next(request, { ...context, cspNonce });
    return withPageHeaders(response, cspNonce, options);
  };
}
