import { connect } from "node:net";

/** What one connection carried back, and how it ended. */
export interface SocketExchange {
  /** Every byte the server sent, as Latin-1 text (one character per byte). */
  readonly received: string;
  /** The connection's error (`ECONNRESET`, `EPIPE`), or undefined when it closed cleanly. */
  readonly error: string | undefined;
}

/** What {@link exchangeOverSocket} writes on one connection. */
export interface SocketRequest {
  /** The request line and headers, ending with the blank line. */
  readonly head: string;
  /** How many body bytes follow the head (default none), written in 64 KiB chunks. */
  readonly bodyBytes?: number;
  /** Frames the body in the chunked transfer coding, with its last chunk. */
  readonly chunked?: boolean;
  /** Written after the body on the same connection: the client's next request. */
  readonly next?: string;
}

/**
 * Opens a connection to `baseUrl` and writes `request` with backpressure, as a browser sends a
 * form: reading never waits for writing, so an answer given early is read while the body is
 * still going out; writing stops once the server ends the connection. After the last byte the
 * client half-closes, so a server keeping the connection alive closes it once it has answered.
 * Resolves when the connection is closed, with all that came back.
 */
export function exchangeOverSocket(
  baseUrl: string,
  request: SocketRequest,
): Promise<SocketExchange> {
  const { hostname, port } = new URL(baseUrl);
  const chunk = Buffer.alloc(64 * 1024, "a");
  const framed = (part: Buffer) =>
    request.chunked
      ? Buffer.concat([
          Buffer.from(`${part.byteLength.toString(16)}\r\n`),
          part,
          Buffer.from("\r\n"),
        ])
      : part;
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    let error: string | undefined;
    let ended = false;
    socket.on("data", (data: Buffer) => received.push(data));
    socket.on("end", () => {
      ended = true;
    });
    socket.on("error", (failure: NodeJS.ErrnoException) => {
      error = failure.code ?? failure.message;
    });
    socket.on("close", () =>
      resolve({ received: Buffer.concat(received).toString("latin1"), error }),
    );
    let left = request.bodyBytes ?? 0;
    const writeBody = () => {
      while (left > 0 && !ended && !socket.destroyed) {
        const part = chunk.subarray(0, Math.min(left, chunk.byteLength));
        left -= part.byteLength;
        if (!socket.write(framed(part))) {
          socket.once("drain", writeBody);
          return;
        }
      }
      if (ended || socket.destroyed) return;
      socket.end(`${request.chunked ? "0\r\n\r\n" : ""}${request.next ?? ""}`);
    };
    socket.write(request.head);
    writeBody();
  });
}

/** One answer read off a connection; its body as its `Content-Length` frames it. */
export interface ReceivedAnswer {
  readonly status: number;
  /** The header lines, names lower-cased; a repeated name keeps its last value. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * The answers in what a connection received, in order: each head and the body its
 * `Content-Length` declares (an answer without one ends the list). An answer cut short is left
 * out, so a reset in the middle of one shows as a missing answer.
 */
export function answersIn(received: string): ReceivedAnswer[] {
  const answers: ReceivedAnswer[] = [];
  let rest = received;
  while (rest.startsWith("HTTP/1.")) {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd === -1) break;
    const [statusLine = "", ...lines] = rest.slice(0, headEnd).split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers["content-length"]);
    const bodyStart = headEnd + 4;
    if (!Number.isInteger(length) || rest.length < bodyStart + length) break;
    const body = Buffer.from(rest.slice(bodyStart, bodyStart + length), "latin1").toString("utf8");
    answers.push({ status: Number(statusLine.split(" ")[1]), headers, body });
    rest = rest.slice(bodyStart + length);
  }
  return answers;
}
