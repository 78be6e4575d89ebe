import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One verification the double received: its content type and its form fields. */
export interface ReceivedVerification {
  readonly contentType: string | undefined;
  readonly form: Readonly<Record<string, string>>;
}

/** A running double of Turnstile's or hCaptcha's `siteverify`. */
export interface SiteverifyDouble {
  /** Its `siteverify` address, on 127.0.0.1. */
  readonly url: string;
  /** Every request received, in order. */
  readonly received: ReceivedVerification[];
  close(): Promise<void>;
}

/** A token the double accepts; any other is refused, but for the ones below. */
export const GOOD_TOKEN = "XXXX.DUMMY.TOKEN.XXXX";
/** A token the double answers with a body that is not JSON. */
export const MALFORMED_ANSWER_TOKEN = "answer-not-json";
/** A token the double answers with a 500. */
export const ERROR_STATUS_TOKEN = "answer-500";
/** A token the double never answers (until it is closed). */
export const HANGING_TOKEN = "never-answered";

function readForm(request: IncomingMessage): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () =>
      resolve(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")))),
    );
    request.on("error", reject);
  });
}

function answerJson(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/**
 * Starts a double of `siteverify` speaking the documented shapes: a form-encoded POST of
 * `secret`, `response`, optional `remoteip` (and `sitekey`), answered `{"success": true,
 * "challenge_ts", "hostname", "error-codes": []}` for {@link GOOD_TOKEN} with the right secret,
 * else `{"success": false, "error-codes": [...]}` (`invalid-input-secret`,
 * `missing-input-response`, `invalid-input-response`).
 */
export async function startSiteverifyDouble(secret: string): Promise<SiteverifyDouble> {
  const received: ReceivedVerification[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer(async (request, response) => {
    if (request.method !== "POST") {
      response.writeHead(405).end();
      return;
    }
    const form = await readForm(request);
    received.push({ contentType: request.headers["content-type"], form });
    const token = form.response;
    if (token === HANGING_TOKEN) {
      hanging.add(response);
      return;
    }
    if (token === MALFORMED_ANSWER_TOKEN) {
      response.writeHead(200, { "content-type": "text/html" }).end("<h1>Bad gateway</h1>");
      return;
    }
    if (token === ERROR_STATUS_TOKEN) {
      response.writeHead(500, { "content-type": "application/json" }).end("{}");
      return;
    }
    if (form.secret !== secret) {
      answerJson(response, { success: false, "error-codes": ["invalid-input-secret"] });
    } else if (token === undefined || token === "") {
      answerJson(response, { success: false, "error-codes": ["missing-input-response"] });
    } else if (token === GOOD_TOKEN) {
      answerJson(response, {
        success: true,
        challenge_ts: "2022-02-28T15:14:30.096Z",
        hostname: "127.0.0.1",
        "error-codes": [],
      });
    } else {
      answerJson(response, { success: false, "error-codes": ["invalid-input-response"] });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/siteverify`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
