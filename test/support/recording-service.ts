import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the service received. */
export interface RecordedRequest {
  readonly method: string;
  /** The request's path and query, as sent. */
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/** What the service answers every request with until told otherwise. */
export interface ServiceAnswer {
  readonly status: number;
  readonly body: string;
}

/**
 * A remote service on 127.0.0.1 (an external job's endpoint, say) that records each request
 * and answers as `answer` says at that moment.
 */
export interface RecordingService {
  /** `http://127.0.0.1:<port>/render`. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  answer: ServiceAnswer;
  close(): Promise<void>;
}

/** Starts a {@link RecordingService} answering `answer` (JSON) until changed. */
export async function startRecordingService(answer: ServiceAnswer): Promise<RecordingService> {
  const requests: RecordedRequest[] = [];
  // One object: the handler reads `answer` from it, so a test's change applies at once.
  const service: { -readonly [Key in keyof RecordingService]: RecordingService[Key] } = {
    url: "",
    requests,
    answer,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      requests.push({
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body,
      });
      response
        .writeHead(service.answer.status, { "content-type": "application/json" })
        .end(service.answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/render`;
  return service;
}
