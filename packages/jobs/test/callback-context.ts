import type { RouteContext } from "@tessera/http";

/** The context a router gives the callback route of the job with this path `id`. */
export function callbackContext(id: string): RouteContext {
  return { params: { id }, clientAddress: "192.0.2.1" };
}
