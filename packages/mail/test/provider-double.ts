import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the double received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** How the double answers one request. */
export type ScriptedAnswer =
  | {
      readonly status: number;
      readonly headers?: Record<string, string>;
      /** JSON-encoded unless a string. */
      readonly body?: unknown;
    }
  /** `bytes` of a JSON-looking body, streamed as the client reads (the oversized answer). */
  | { readonly status: number; readonly streamBytes: number }
  /** Never answers (the client's timeout must end the attempt). */
  | { readonly hang: true }
  /** Starts an answer, then drops the connection midway through the body. */
  | { readonly status: number; readonly brokenBody: string };

/**
 * A provider double on 127.0.0.1: records every request and answers from a queue of scripted
 * answers, then with `success`. One per test file (`start` in beforeAll, `reset` in beforeEach).
 */
export async function startProviderDouble(success: ScriptedAnswer) {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedAnswer[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      requests.push({
        method: incoming.method ?? "",
        path: incoming.url ?? "",
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      answer(outgoing, queue.shift() ?? success, hanging);
    });
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Answers the next requests with these, in order, before falling back to `success`. */
    answerNext(...answers: ScriptedAnswer[]) {
      queue.push(...answers);
    },
    reset() {
      requests.length = 0;
      queue.length = 0;
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

function answer(outgoing: ServerResponse, scripted: ScriptedAnswer, hanging: Set<ServerResponse>) {
  if ("hang" in scripted) {
    hanging.add(outgoing);
    return;
  }
  if ("brokenBody" in scripted) {
    outgoing.writeHead(scripted.status, {
      "Content-Type": "application/json",
      "Content-Length": "100000",
    });
    outgoing.write(scripted.brokenBody, () => outgoing.destroy());
    return;
  }
  if ("streamBytes" in scripted) {
    outgoing.writeHead(scripted.status, { "Content-Type": "application/json" });
    streamFiller(outgoing, scripted.streamBytes);
    return;
  }
  const body =
    scripted.body === undefined
      ? ""
      : typeof scripted.body === "string"
        ? scripted.body
        : JSON.stringify(scripted.body);
  outgoing.writeHead(scripted.status, {
    "Content-Type": "application/json",
    ...scripted.headers,
  });
  outgoing.end(body);
}

/** Writes `{"message":"xxxx…` up to `bytes`, waiting for the client at each full buffer. */
function streamFiller(outgoing: ServerResponse, bytes: number) {
  const chunk = Buffer.alloc(64 * 1024, "x");
  let sent = 0;
  outgoing.write('{"message":"');
  const writeMore = () => {
    while (sent < bytes && !outgoing.destroyed) {
      sent += chunk.length;
      if (!outgoing.write(chunk)) {
        outgoing.once("drain", writeMore);
        return;
      }
    }
    if (!outgoing.destroyed) outgoing.end('"}');
  };
  outgoing.on("error", () => undefined);
  writeMore();
}
