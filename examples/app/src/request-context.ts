import { getConnInfo } from "@hono/node-server/conninfo";
import { clientIp, type RouteContext } from "@tessera/http";
import type { Context } from "hono";

/**
 * What the packages' handlers need besides the Request: the client address, from the socket,
 * or `TRUST_PROXY` hops from the right of `X-Forwarded-For` (never the leftmost entry).
 */
export function requestContext(
  context: Context,
  trustProxy: number,
): Pick<RouteContext, "clientAddress"> {
  const socketAddress = context.env?.incoming ? getConnInfo(context).remote.address : undefined;
  const address = clientIp({
    socketAddress,
    forwardedFor: context.req.header("x-forwarded-for") ?? null,
    trustProxy,
  });
  return { clientAddress: address ?? "unknown" };
}
