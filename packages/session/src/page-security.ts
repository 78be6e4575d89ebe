import { randomToken } from "@tessera/crypto";
import {
  type PageHeaderOptions,
  type PageRouteContext,
  type Route,
  type RouteContext,
  withPageHeaders,
} from "@tessera/http";

/**
 * A fresh Content-Security-Policy nonce: 256 random bits as URL-safe base64, unguessable, for
 * one answer only (a nonce used twice lets a script injected into the second page run).
 */
export function newCspNonce(): string {
  return randomToken();
}

/**
 * The routes, each answering with its own security headers: a fresh nonce per request is handed
 * to the handler (`context.cspNonce`, for the page's `<script>` tags) and put in the page's
 * Content-Security-Policy by `withPageHeaders` of `@tessera/http`, whatever framework serves
 * the route. HTML route groups apply this themselves.
 */
export function withPageSecurity<C extends RouteContext>(
  routes: readonly Route<C & PageRouteContext>[],
  options: PageHeaderOptions = {},
): Route<C>[] {
  return routes.map((route) => ({
    ...route,
    handle: async (request, context) => {
      const cspNonce = newCspNonce();
      const response = await route.handle(request, { ...context, cspNonce });
      return withPageHeaders(response, cspNonce, options);
    },
  }));
}
