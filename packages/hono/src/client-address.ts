import { clientIp } from "@tessera/http";
import type { Context, MiddlewareHandler } from "hono";
import type { TesseraEnv } from "./variables.js";

/** Options of {@link clientAddress}. */
export interface ClientAddressOptions {
  /** `TRUST_PROXY`: how many proxies append to `X-Forwarded-For`; default 0 (the socket). */
  readonly trustProxy?: number;
  /**
   * The socket's address on your runtime. Default: read from what `@hono/node-server` (the
   * Node request in `c.env.incoming`) or Bun (`c.env.requestIP`) put on the context, without
   * importing either; anything else gives `unknown` unless you pass this.
   */
  readonly socketAddress?: (context: Context) => string | undefined;
}

interface RuntimeBindings {
  readonly incoming?: { readonly socket?: { readonly remoteAddress?: string } };
  readonly requestIP?: (request: Request) => { readonly address?: string } | null;
}

function runtimeSocketAddress(context: Context): string | undefined {
  const bindings = context.env as RuntimeBindings | undefined;
  return (
    bindings?.incoming?.socket?.remoteAddress ??
    bindings?.requestIP?.(context.req.raw)?.address ??
    undefined
  );
}

/**
 * Sets `c.get("clientAddress")`: the socket address, or `trustProxy` hops from the right of
 * `X-Forwarded-For` (never the leftmost entry, which the client writes). Rate limits key on it.
 */
export function clientAddress(options: ClientAddressOptions = {}): MiddlewareHandler<TesseraEnv> {
  const socketAddress = options.socketAddress ?? runtimeSocketAddress;
  return async (context, next) => {
    const address = clientIp({
      socketAddress: socketAddress(context),
      forwardedFor: context.req.header("x-forwarded-for") ?? null,
      trustProxy: options.trustProxy ?? 0,
    });
    context.set("clientAddress", address ?? "unknown");
    await next();
  };
}
