import type { Locale } from "@tessera/core";
import type { RouteContext } from "@tessera/http";

/** What `routeRequests` gives: a request and its context in, the route's answer out. */
type RouteRequests = (
  request: Request,
  context?: Omit<RouteContext, "params" | "clientAddress"> & { readonly clientAddress?: string },
) => Promise<Response | undefined>;

/**
 * Sends the JSON API's requests to `handle` from one client address on `origin`: with the
 * bearer token when given, and in `locale` when given (as `localeNegotiation` would choose it).
 * @throws {Error} when no route takes the request.
 */
export function jsonCaller(handle: RouteRequests, origin: string, clientAddress: string) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    bearer?: string,
    locale?: Locale,
  ): Promise<Response> => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const request = new Request(`${origin}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const response = await handle(request, { clientAddress, ...(locale ? { locale } : {}) });
    if (!response) throw new Error(`no route for ${method} ${path}`);
    return response;
  };
}
