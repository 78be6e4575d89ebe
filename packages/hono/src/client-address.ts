import { clientIp } from "@tessera/http";
import type { MiddlewareHandler } from "hono";
import type { GetConnInfo } from "hono/conninfo";
import type { TesseraEnv } from "./variables.js";

/** Options of {@link clientAddress}. */
export interface ClientAddressOptions {
  /**
   * Hono's `getConnInfo` for your runtime, which knows its socket: `@hono/node-server/conninfo`
   * on Node, `hono/bun`, `hono/deno`, `hono/cloudflare-workers` (which reads
   * `CF-Connecting-IP`, set by Cloudflare's edge).
   */
  readonly getConnInfo: GetConnInfo;
  /** `TRUST_PROXY`: how many proxies append to `X-Forwarded-For`; default 0 (the socket). */
  readonly trustProxy?: number | undefined;
}

/**
 * Sets `c.get("clientAddress")`: the socket address, or `trustProxy` hops from the right of
 * `X-Forwarded-For` (never the leftmost entry, which the client writes). Rate limits key on it;
 * `unknown` when the runtime knows no socket (a request made in process with `app.request`).
 */
export function clientAddress(options: ClientAddressOptions): MiddlewareHandler<TesseraEnv> {
  const { getConnInfo } = options;
  const trustProxy = options.trustProxy ?? 0;
  return async (context, next) => {
    let socketAddress: string | undefined;
    try {
      socketAddress = getConnInfo(context).remote.address;
    } catch {
      // A runtime's getConnInfo reads its own bindings (the Node request, the Bun server) and
      // throws on a request that came another way, as one handed to `app.fetch` in a test does.
      socketAddress = undefined;
    }
    // Without a trusted proxy the header is never used: leave it unread.
    const address =
      trustProxy > 0
        ? clientIp({
            socketAddress,
            forwardedFor: context.req.header("x-forwarded-for") ?? null,
            trustProxy,
          })
        : socketAddress;
    context.set("clientAddress", address ?? "unknown");
    await next();
  };
}
