import type { ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { errorEnvelope } from "@tessera/core";
import { SECURITY_HEADERS } from "@tessera/http";

/** The message of the 400 for a request no route can read: one Node or the URL parser refused. */
export const UNPARSABLE_REQUEST_MESSAGE = "Bad request";

/** The status and message for each parse failure Node reports; anything else is a 400. */
function refusalFor(code: string | undefined): { status: number; reason: string; message: string } {
  if (code === "HPE_HEADER_OVERFLOW") {
    return {
      status: 431,
      reason: "Request Header Fields Too Large",
      message: "Request header fields too large",
    };
  }
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return { status: 408, reason: "Request Timeout", message: "Request timeout" };
  }
  return { status: 400, reason: "Bad Request", message: UNPARSABLE_REQUEST_MESSAGE };
}

/**
 * The server's `clientError` listener: a request Node cannot parse (a head over its 16 KiB, a
 * broken header line, a request line that is not HTTP) reaches no route, and Node's own answer
 * is an empty body. This one says what happened in the JSON envelope, as every route does, with
 * the headers the security middleware would add. Like Node, it writes nothing once an answer
 * has started on the connection, and lets a reset connection go.
 */
export function answerUnparsableRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  const answering = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || answering?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, reason, message } = refusalFor(error.code);
  const body = JSON.stringify(errorEnvelope(status, message));
  socket.end(
    [
      `HTTP/1.1 ${status} ${reason}`,
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(body)}`,
      ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
      "Connection: close",
      "",
      body,
    ].join("\r\n"),
  );
}
