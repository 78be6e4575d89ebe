import type { IncomingMessage } from "node:http";

/** Why a Node request could not become a WHATWG Request. */
export type NodeRequestRefusal = "bad-host" | "body-already-read";

/**
 * The request's body as a web stream that reads the socket as the handler pulls (nothing is
 * buffered ahead), erroring once more than `maximumBytes` arrived: a chunked body has no
 * honest length, so the count is the only cap.
 */
function bodyStream(
  incoming: IncomingMessage,
  maximumBytes: number,
  onTooLarge: () => void,
): ReadableStream<Uint8Array> {
  let received = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.on("data", (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received > maximumBytes) {
          // The route's read fails and it answers; the rest is never read, and the connection
          // closes after that answer instead of being drained for a client that may not stop.
          incoming.removeAllListeners("data");
          incoming.pause();
          onTooLarge();
          controller.error(new RangeError(`the request body is over ${maximumBytes} bytes`));
          return;
        }
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        // Backpressure: stop reading the socket until the handler asks for more.
        if ((controller.desiredSize ?? 1) <= 0) incoming.pause();
      });
      incoming.once("end", () => controller.close());
      incoming.once("error", (error) => controller.error(error));
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      incoming.destroy();
    },
  });
}

/** Node's header object as `Headers`: repeated headers appended, HTTP/2 pseudo-headers left out. */
function webHeaders(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (name.startsWith(":") || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/**
 * The WHATWG Request of a Node request, its body streamed (never read ahead), cancelled by
 * `signal` when the client goes away. Refused when `Host` makes no valid URL, or when a body
 * parser mounted earlier (e.g. `express.json()`) already consumed the body: the raw bytes a
 * signature covers are gone then.
 */
export function webRequest(
  incoming: IncomingMessage & { readonly originalUrl?: string; readonly body?: unknown },
  options: {
    readonly maximumBodyBytes: number;
    readonly signal: AbortSignal;
    /** Called once when the body grew past the cap. */
    readonly onTooLarge: () => void;
  },
): { ok: true; request: Request } | { ok: false; reason: NodeRequestRefusal } {
  const method = incoming.method ?? "GET";
  const encrypted = (incoming.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  let url: URL;
  try {
    const host = incoming.headers.host ?? "localhost";
    url = new URL(
      incoming.originalUrl ?? incoming.url ?? "/",
      `${encrypted ? "https" : "http"}://${host}`,
    );
  } catch {
    return { ok: false, reason: "bad-host" };
  }
  const hasBody = method !== "GET" && method !== "HEAD";
  if (hasBody && (incoming.readableEnded || incoming.body !== undefined)) {
    return { ok: false, reason: "body-already-read" };
  }
  const init: RequestInit & { duplex?: "half" } = {
    method,
    headers: webHeaders(incoming),
    signal: options.signal,
  };
  if (hasBody) {
    init.body = bodyStream(incoming, options.maximumBodyBytes, options.onTooLarge);
    // Required by Node's fetch for a streamed request body.
    init.duplex = "half";
  }
  return { ok: true, request: new Request(url, init) };
}
