import type { IncomingMessage, ServerResponse } from "node:http";
import {
  clientIp,
  createRouteMatcher,
  jsonError,
  type Route,
  type RouteContext,
  routeRequests,
} from "@tessera/http";
import { webRequest } from "./node-request.js";
import { writeResponse } from "./node-response.js";
import { settleUnreadBody } from "./unread-body.js";

/**
 * Default cap of a request body the adapter streams: 64 MiB, the largest upload route's. Named
 * apart from `@tessera/http`'s `DEFAULT_MAXIMUM_BODY_BYTES` (1 MiB), the body readers' default.
 */
export const DEFAULT_STREAMED_BODY_BYTES = 64 * 1024 * 1024;

/** The message of the 500 a body parser mounted before the handler causes. */
export const BODY_ALREADY_READ_MESSAGE =
  "The request body was already read by a body parser: mount Tessera's handler before it.";

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /** `TRUST_PROXY`: how many proxies append to `X-Forwarded-For` (see `clientIp`); default 0. */
  readonly trustProxy?: number | undefined;
  /**
   * Largest body streamed to a route (default {@link DEFAULT_STREAMED_BODY_BYTES}). A larger
   * `Content-Length` is a 413 before the route runs; a chunked body that grows past it fails
   * the route's read. Each route keeps its own smaller cap (1 MiB JSON, 4 MiB forms…).
   */
  readonly maximumBodyBytes?: number | undefined;
  /** Called with an error a route threw (default: one line on stderr); the client gets a 500. */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/** A Node request listener that is also Express middleware (it calls `next` for other paths). */
export type NodeHandler = (
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

/**
 * Serves routes from Node's `http` module, Express 5 (`app.use(handler)`) or Fastify 5 (see the
 * README: the raw request, a content-type parser that leaves the body alone). The body is
 * streamed to the route untouched, so webhook signatures verify over the exact bytes.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import type { Route } from "@tessera/http";
 * import { toNodeHandler } from "@tessera/node";
 *
 * const hello: Route = { method: "GET", path: "/hello", handle: async () => new Response("Hello") };
 * createServer(toNodeHandler([hello], { trustProxy: 1 })).listen(3000);
 * ```
 */
export function toNodeHandler(
  routes: readonly Route<RouteContext>[],
  options: NodeHandlerOptions = {},
): NodeHandler {
  const route = routeRequests(routes);
  const match = createRouteMatcher(routes);
  const maximumBodyBytes = options.maximumBodyBytes ?? DEFAULT_STREAMED_BODY_BYTES;
  const report =
    options.onError ?? ((error: unknown) => console.error("A Tessera route failed:", error));

  async function serve(
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    next: ((error?: unknown) => void) | undefined,
  ): Promise<void> {
    // Another path is the app's: passed on before anything here looks at its body or headers.
    if (!match(incoming.method ?? "GET", requestPath(incoming))) {
      if (next) next();
      else await writeResponse(jsonError(404, "Not found"), outgoing);
      return;
    }
    const declared = Number(incoming.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maximumBodyBytes) {
      await answer(incoming, outgoing, jsonError(413, "Request body too large"), 0);
      return;
    }
    const aborted = new AbortController();
    outgoing.once("close", () => {
      if (!outgoing.writableFinished) aborted.abort();
    });
    const converted = webRequest(incoming, { maximumBodyBytes, signal: aborted.signal });
    if (!converted.ok) {
      const refusal =
        converted.reason === "bad-host"
          ? jsonError(400, "Invalid Host header")
          : jsonError(500, BODY_ALREADY_READ_MESSAGE);
      await answer(incoming, outgoing, refusal, 0);
      return;
    }
    const clientAddress =
      clientIp({
        socketAddress: incoming.socket?.remoteAddress,
        forwardedFor: incoming.headers["x-forwarded-for"],
        trustProxy: options.trustProxy ?? 0,
      }) ?? "unknown";
    const { body } = converted;
    let response: Response | undefined;
    try {
      response = await route(converted.request, { clientAddress });
    } finally {
      // The route is done with the body, whatever it read of it: what is left is settled below
      // (or by Express's error handler, which reads the rest itself).
      body?.release();
    }
    await answer(incoming, outgoing, response ?? jsonError(404, "Not found"), body?.receivedBytes);
  }

  return (incoming, outgoing, next) => {
    serve(incoming, outgoing, next).catch(async (error: unknown) => {
      if (outgoing.headersSent) {
        outgoing.destroy();
        report(error);
        return;
      }
      if (next) {
        next(error);
        return;
      }
      report(error);
      await answer(incoming, outgoing, jsonError(500, "Internal server error")).catch(() =>
        outgoing.destroy(),
      );
    });
  };
}

/**
 * Writes the answer; a body the route left unread is drained or the connection closed after
 * the answer (see {@link settleUnreadBody}), so the client reads the answer, never a reset.
 * `receivedBytes` is how much of the body arrived (undefined: unknown, treated as none).
 */
async function answer(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  response: Response,
  receivedBytes = 0,
): Promise<void> {
  if (incoming.method !== "GET" && incoming.method !== "HEAD") {
    settleUnreadBody(incoming, outgoing, receivedBytes);
  }
  await writeResponse(response, outgoing);
}

/** The request's path, as Express's `originalUrl` keeps it when the handler is mounted under a prefix. */
function requestPath(
  incoming: IncomingMessage & { readonly originalUrl?: string | undefined },
): string {
  try {
    return new URL(incoming.originalUrl ?? incoming.url ?? "/", "http://localhost").pathname;
  } catch {
    return "/";
  }
}
