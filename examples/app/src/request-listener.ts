import type { IncomingMessage, RequestListener } from "node:http";
import { getRequestListener, RequestError } from "@hono/node-server";
import { badRequest, jsonError } from "@tessera/http";
import type { NodeServerFetch } from "@tessera/node";
import { INTERNAL_ERROR_MESSAGE } from "./unhandled-error.js";
import { UNPARSABLE_REQUEST_MESSAGE } from "./unparsable-request.js";

/**
 * An HTTP/1.1 request without `Host` must be refused (RFC 9112 §3.2). Node's own check answers
 * it with an empty body, so the server leaves it to {@link appRequestListener}, which answers
 * it in the envelope.
 */
export const SERVER_OPTIONS = { requireHostHeader: false } as const;

/**
 * `@hono/node-server`'s answer when the request makes no URL (a `Host` such as `x:1:2` or
 * `[::1`, a backslash in the path, an `ftp:` or `*` target): the 400 envelope, with the
 * security headers, where it gave an empty 400. Anything else it hands over is a handler that
 * failed outside Hono's own `onError`: the 500 envelope.
 */
function answerUnbuildableRequest(error: unknown): Response {
  if (error instanceof RequestError) return badRequest(UNPARSABLE_REQUEST_MESSAGE);
  console.error("A request failed outside the app:", error);
  return jsonError(500, INTERNAL_ERROR_MESSAGE);
}

/**
 * `Host: app.example:` names `app.example`: RFC 3986 §3.2.3 allows an empty port and says to
 * read it as none. `@hono/node-server` refuses it, so the port's `:` is dropped here, from the
 * parsed headers and the raw ones alike, so every later reader (the URL, the host check, the
 * cross-site check, links in emails) sees one host.
 */
function dropEmptyPort(incoming: IncomingMessage): void {
  const host = incoming.headers.host;
  if (host === undefined || !host.endsWith(":")) return;
  incoming.headers.host = host.slice(0, -1);
  const raw = incoming.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    if (raw[index]!.toLowerCase() === "host") raw[index + 1] = incoming.headers.host;
  }
}

/**
 * The app's Node request listener: `@hono/node-server`'s for `fetch`, with the requests it
 * answers before any route (no `Host` on HTTP/1.1, a request that makes no URL) answered in the
 * JSON envelope like every other refusal. Serve it with {@link SERVER_OPTIONS}. `defaultHost`
 * is the URL's host for an HTTP/1.0 request, which may leave `Host` out.
 */
export function appRequestListener(fetch: NodeServerFetch, defaultHost: string): RequestListener {
  const errorHandler = answerUnbuildableRequest;
  const http10 = getRequestListener(fetch, { hostname: defaultHost, errorHandler });
  // Without a default host, a request without one is a RequestError, answered as above.
  const requiringHost = getRequestListener(fetch, { errorHandler });
  return (incoming, outgoing) => {
    dropEmptyPort(incoming);
    void (incoming.httpVersion === "1.0" ? http10 : requiringHost)(incoming, outgoing);
  };
}
