import { request as httpRequest } from "node:http";

/** A request exactly as it goes on the wire: the path unnormalized, headers repeatable. */
export interface RawRequest {
  readonly method: string;
  /** Sent as written (percent-encoding, dot segments and all); must be ASCII without spaces. */
  readonly path: string;
  /** In order, a name may repeat; values are sent as Latin-1 bytes. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: Uint8Array;
}

/** What came back: the status, the headers (repeats joined by Node) and the body's bytes. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

/**
 * Sends `request` to `baseUrl` over a connection of its own with node:http, which (unlike
 * fetch) sends a path as written and a header twice when told. Rejects when no answer arrives
 * within `timeoutMs` or the connection ends without one.
 */
export function sendRawRequest(
  baseUrl: string,
  request: RawRequest,
  timeoutMs = 20_000,
): Promise<RawResponse> {
  const { host, hostname, port } = new URL(baseUrl);
  const hasHost = request.headers.some(([name]) => name.toLowerCase() === "host");
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({
      host: hostname,
      port,
      method: request.method,
      path: request.path,
      // The raw form (name, value, name, value...) keeps repeated headers as separate lines.
      // Node adds no Host to raw headers: the one the URL names, unless the request has its own.
      headers: [
        ...(hasHost ? [] : ["host", host]),
        ...request.headers.flat(),
        ...(request.body ? ["content-length", String(request.body.byteLength)] : []),
      ],
      agent: false,
      timeout: timeoutMs,
    });
    outgoing.on("timeout", () => {
      outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`));
    });
    let answered = false;
    outgoing.on("response", (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
      response.on("error", reject);
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      // A server may answer before it has read the whole body, and then close: writing the rest
      // fails (EPIPE, ECONNRESET) while the answer is already on its way. Wait for it a moment.
      if (answered) return;
      if (error.code === "EPIPE" || error.code === "ECONNRESET") {
        const noAnswer = setTimeout(
          () => reject(new Error(`the connection ended without an answer (${error.code})`)),
          1_000,
        );
        outgoing.once("response", () => clearTimeout(noAnswer));
        return;
      }
      reject(error);
    });
    outgoing.end(request.body);
  });
}
