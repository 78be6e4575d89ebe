import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";

/** A request a {@link testReceiver} got, body read whole. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

type Answer = (request: ReceivedRequest, response: ServerResponse) => void;

/**
 * One HTTP server on 127.0.0.1 for a whole test file, answering each path with the handler
 * set for it (404 otherwise) and keeping what it received, by path. Closed after the file.
 */
export async function testReceiver() {
  const answers = new Map<string, Answer>();
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = new URL(request.url ?? "/", "http://x").pathname;
      const got = {
        method: request.method ?? "",
        path,
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(got);
      const answer = answers.get(path);
      if (answer) answer(got, response);
      else response.writeHead(404).end("no such receiver");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    /** Sets how `path` answers (each path a test of its own: the server is shared). */
    on(path: string, answer: Answer) {
      answers.set(path, answer);
    },
    /** What `path` received so far. */
    receivedAt: (path: string) => received.filter((request) => request.path === path),
  };
}
