import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * The most of an unread body that is read and dropped after the answer so the connection can
 * serve the client's next request: Go's net/http reads 256 KiB. A larger rest closes it.
 */
export const DRAIN_LIMIT_BYTES = 256 * 1024;

/**
 * How long, at most, a closing connection keeps reading and dropping what the client still
 * sends after the answer: the client needs a moment to read the answer before the socket
 * closes (closing with unread bytes sends a TCP reset, which may reach the client first).
 */
export const LINGER_MS = 2000;

/** The most a closing connection reads and drops after the answer, however fast it comes. */
export const LINGER_LIMIT_BYTES = 16 * 1024 * 1024;

/** The bytes of the body still to come, when the request declared its length. */
function remainingBytes(incoming: IncomingMessage, receivedBytes: number): number | undefined {
  const declared = incoming.headers["content-length"];
  if (declared === undefined || incoming.headers["transfer-encoding"] !== undefined) return;
  return /^[0-9]+$/.test(declared) ? Number(declared) - receivedBytes : undefined;
}

/** Reads the request and drops its bytes; past `limit` bytes, calls `tooMuch` once. */
function dropBody(incoming: IncomingMessage, limit: number, tooMuch: () => void): void {
  // The route is done with the body, but the reader it let go of may still listen: a web stream
  // made by Readable.toWeb (@hono/node-server's) pauses the request whenever its unread queue is
  // full, which would stop the dropping, and would queue every dropped byte in memory.
  incoming.removeAllListeners("data");
  let dropped = 0;
  incoming.on("data", (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > limit) {
      dropped = Number.NEGATIVE_INFINITY;
      tooMuch();
    }
  });
  incoming.resume();
}

/**
 * Node closes a `Connection: close` connection as soon as the answer is written, with the
 * client's body still arriving: the reset that sends may overtake the answer. This closes it
 * the way Go's server does instead: the write side first (the client sees the answer and the
 * end), then the socket once the client stopped sending, or after {@link LINGER_MS}. Returns
 * the function that gives the socket Node's own close back, for a connection that stays open.
 */
function closeAfterLingering(incoming: IncomingMessage, socket: Socket): () => void {
  let lingering = false;
  // Node's http server calls destroySoon on the socket once a closing answer is written; it is
  // replaced for this socket only, because no option lets a route delay that close. It stays
  // replaced while the close lingers: @hono/node-server's own drain calls it again after 500 ms,
  // which would cut the linger short with the very reset it is there to avoid.
  socket.destroySoon = () => {
    if (lingering) return;
    lingering = true;
    socket.end();
    const close = () => {
      clearTimeout(timer);
      restore();
      socket.destroy();
    };
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    incoming.once("end", close);
    incoming.once("error", close);
    dropBody(incoming, LINGER_LIMIT_BYTES, close);
  };
  // The own property hid the prototype's method; removing it brings that back.
  const restore = () => Reflect.deleteProperty(socket, "destroySoon");
  return restore;
}

/**
 * For a request whose route answered before reading its body to the end (a body over its
 * cap, a refusal before the read): call before the answer is written. A rest of at most
 * {@link DRAIN_LIMIT_BYTES} is read and dropped, and the connection stays open for the next
 * request; anything larger, or a chunked body of unknown length, gets `Connection: close` on
 * the answer and a lingering close after it. Either way the client receives the answer, never
 * a reset in its place.
 */
export function settleUnreadBody(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  receivedBytes: number,
): void {
  if (incoming.readableEnded || incoming.destroyed) return;
  const socket = incoming.socket;
  // The client may ask to close after this answer itself: the close lingers then too.
  const restore = socket ? closeAfterLingering(incoming, socket) : () => false;
  const remaining = remainingBytes(incoming, receivedBytes);
  if (remaining !== undefined && remaining <= DRAIN_LIMIT_BYTES) {
    // Drained, the connection serves the next request, which closes as Node closes any.
    incoming.once("end", restore);
    dropBody(incoming, DRAIN_LIMIT_BYTES, () => socket?.destroy());
    return;
  }
  if (!outgoing.headersSent) outgoing.setHeader("connection", "close");
}
