import type { SessionRouteContext } from "@tessera/session";

/** The `:token` of a path such as `/magic_link/:token`, as the router decoded it. */
export function pathToken(context: SessionRouteContext): string {
  return context.params.token ?? "";
}
