import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { settleUnreadBody } from "./unread-body.js";

/** What `@hono/node-server` hands a fetch handler beside the request: Node's request and answer. */
export interface NodeServerBindings {
  readonly incoming: IncomingMessage | Http2ServerRequest;
  readonly outgoing: ServerResponse | Http2ServerResponse;
}

/** A fetch handler as `@hono/node-server` calls it (`app.fetch` of a Hono app is one). */
export type NodeServerFetch = (
  request: Request,
  bindings: NodeServerBindings,
) => Response | Promise<Response>;

/**
 * Wraps a fetch handler served by `@hono/node-server` (`serve({ fetch: settleUnreadBodies(app.fetch) })`)
 * so an answer given before the body was read to its end (a form over its cap, a refusal before
 * the read) reaches the client as {@link settleUnreadBody} makes it for `toNodeHandler`: a small
 * rest drained, a larger or chunked one answered with `Connection: close` and a lingering close.
 * Unwrapped, the server answers `keep-alive`, then closes the connection 500 ms later under the
 * client's next request or still-arriving body, which then sees a reset. HTTP/2 streams, which
 * close alone, and `GET`/`HEAD` requests pass straight through.
 */
export function settleUnreadBodies(fetch: NodeServerFetch): NodeServerFetch {
  return (request, bindings) => {
    const answer = fetch(request, bindings);
    const { incoming, outgoing } = bindings;
    if (
      incoming.httpVersionMajor !== 1 ||
      incoming.method === "GET" ||
      incoming.method === "HEAD"
    ) {
      return answer;
    }
    // How much of the body the route read is not known here: the whole declared length counts
    // as unread, so a partly read body may close where an exact count would have drained it.
    const settle = (response: Response) => {
      settleUnreadBody(incoming as IncomingMessage, outgoing as ServerResponse, 0);
      return response;
    };
    return answer instanceof Promise ? answer.then(settle) : settle(answer);
  };
}
