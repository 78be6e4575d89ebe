import type { IncomingMessage } from "node:http";
import { type NodeIncoming, requestUrl, webHeaders } from "./request-head.js";

/** Why a Node request could not become a WHATWG Request. */
export type NodeRequestRefusal = "bad-host" | "body-already-read";

/** A request body as the adapter streams it to the route. */
export interface StreamedBody {
  /** Bytes of the body that arrived so far (handed to the route or not). */
  readonly receivedBytes: number;
  /**
   * Stops streaming: later bytes stay in the socket, unread, until whoever answers the request
   * drains them or closes the connection (see `settleUnreadBody`). Safe to call more than once.
   */
  release(): void;
}

/**
 * The request's body as a web stream that reads the socket as the handler pulls (nothing is
 * buffered ahead), erroring once more than `maximumBytes` arrived: a chunked body has no
 * honest length, so the count is the only cap. Neither a cancel nor the cap destroys the
 * socket: the answer has not been written yet, and a reset would lose it.
 */
function bodyStream(
  incoming: IncomingMessage,
  maximumBytes: number,
  onTooLarge: (() => void) | undefined,
): { stream: ReadableStream<Uint8Array>; body: StreamedBody } {
  let receivedBytes = 0;
  let released = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Buffer) => {
    receivedBytes += chunk.byteLength;
    if (receivedBytes > maximumBytes) {
      // The route's read fails and it answers; the rest is left to the adapter.
      body.release();
      onTooLarge?.();
      controller.error(new RangeError(`the request body is over ${maximumBytes} bytes`));
      return;
    }
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    // Backpressure: stop reading the socket until the handler asks for more.
    if ((controller.desiredSize ?? 1) <= 0) incoming.pause();
  };
  const onEnd = () => controller.close();
  const onError = (error: Error) => controller.error(error);
  const body: StreamedBody = {
    get receivedBytes() {
      return receivedBytes;
    },
    release() {
      if (released) return;
      released = true;
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
      // Removing the last 'data' listener does not stop the flow by itself.
      incoming.pause();
    },
  };
  const stream = new ReadableStream<Uint8Array>({
    start(started) {
      controller = started;
      incoming.on("data", onData);
      incoming.once("end", onEnd);
      incoming.once("error", onError);
    },
    pull() {
      if (!released) incoming.resume();
    },
    cancel() {
      body.release();
    },
  });
  return { stream, body };
}

/**
 * The WHATWG Request of a Node request, its body streamed (never read ahead), cancelled by
 * `signal` when the client goes away, with the {@link StreamedBody} that tells how much of it
 * arrived (undefined for a request without a body). Refused when `Host` makes no valid URL, or
 * when a body parser mounted earlier (e.g. `express.json()`) already consumed the body: the raw
 * bytes a signature covers are gone then.
 */
export function webRequest(
  incoming: NodeIncoming & { readonly body?: unknown },
  options: {
    readonly maximumBodyBytes: number;
    readonly signal: AbortSignal;
    /** Called once when the body grew past the cap. */
    readonly onTooLarge?: (() => void) | undefined;
  },
):
  | { ok: true; request: Request; body: StreamedBody | undefined }
  | { ok: false; reason: NodeRequestRefusal } {
  const method = incoming.method ?? "GET";
  const url = requestUrl(incoming);
  if (url === undefined) return { ok: false, reason: "bad-host" };
  const hasBody = method !== "GET" && method !== "HEAD";
  if (hasBody && (incoming.readableEnded || incoming.body !== undefined)) {
    return { ok: false, reason: "body-already-read" };
  }
  const init: RequestInit & { duplex?: "half" | undefined } = {
    method,
    headers: webHeaders(incoming),
    signal: options.signal,
  };
  if (!hasBody) return { ok: true, request: new Request(url, init), body: undefined };
  const { stream, body } = bodyStream(incoming, options.maximumBodyBytes, options.onTooLarge);
  init.body = stream;
  // Required by Node's fetch for a streamed request body.
  init.duplex = "half";
  return { ok: true, request: new Request(url, init), body };
}
