import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake service received. */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Whether `X-Signature` is the lowercase hex HMAC-SHA256 of the body under the secret. */
  readonly signatureValid: boolean;
}

/** How the fake service answers a request: a status and body, or never. */
export type Answer = { readonly status: number; readonly body: string } | "hang";

/** A remote job service on 127.0.0.1 that records what it receives. */
export interface FakeService {
  readonly url: string;
  readonly received: Received[];
  /** Changes how later requests are answered. */
  answerWith(answer: (received: Received) => Answer): void;
  close(): Promise<void>;
}

/**
 * Starts the service. It checks signatures with node:crypto, independently of the code under
 * test, and a `hang` answer keeps the connection open until `close`.
 */
export async function startFakeService(
  secret: string,
  answer: (received: Received) => Answer,
): Promise<FakeService> {
  let current = answer;
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const expected = createHmac("sha256", secret).update(body).digest("hex");
      const entry: Received = {
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body,
        signatureValid: request.headers["x-signature"] === expected,
      };
      received.push(entry);
      const reply = current(entry);
      if (reply === "hang") return;
      response.writeHead(reply.status, { "Content-Type": "application/json" });
      response.end(reply.body);
    });
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/jobs`,
    received,
    answerWith(next) {
      current = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An address where nothing listens: a port that was just bound and released. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/jobs`;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}
