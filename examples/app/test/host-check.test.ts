// The host check over real HTTP: in production a request whose Host is neither APP_URL's host
// nor listed in ALLOWED_HOSTS is refused with a 400 before any route runs; in development every
// host is served.
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/test-server.js";

let production: TestServer;
let development: TestServer;

beforeAll(async () => {
  production = await startTestServer({
    NODE_ENV: "production",
    APP_URL: "https://app.example",
    ALLOWED_HOSTS: "www.app.example, ::1",
  });
  development = await startTestServer();
});
afterAll(() => Promise.all([production.stop(), development.stop()]));

interface Answer {
  readonly status: number;
  readonly type: string | undefined;
  readonly body: string;
}

/** Sends a request to `server` with `host` as its Host header, whatever address it reaches. */
function send(
  server: TestServer,
  host: string,
  path = "/api/health",
  options: { method?: string; form?: string } = {},
): Promise<Answer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host };
    if (options.form !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      headers["sec-fetch-site"] = "same-origin";
    }
    const sent = httpRequest(
      { host: "127.0.0.1", port, path, method: options.method ?? "GET", headers },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            type: response.headers["content-type"],
            body,
          }),
        );
      },
    );
    sent.on("error", reject);
    sent.end(options.form);
  });
}

const REFUSAL = JSON.stringify({
  error: {
    code: "unknown_host",
    message: "Unknown host: add it to ALLOWED_HOSTS to serve it.",
    status: 400,
  },
});

describe("the host check in production", () => {
  it("serves APP_URL's host and the listed ones, with a port (an empty one too) and in any case", async () => {
    for (const host of [
      "app.example",
      "app.example:",
      "[::1]:",
      "www.app.example",
      "app.example:443",
      "www.app.example:8443",
      "APP.Example",
      "app.example.",
      "[::1]",
      "[::1]:3000",
    ]) {
      const answer = await send(production, host);
      expect([host, answer.status, answer.body]).toEqual([host, 200, '{"status":"ok"}']);
    }
  });

  it("refuses an unknown host with the 400 envelope, on JSON and page paths alike", async () => {
    for (const [host, path] of [
      ["evil.example", "/api/health"],
      ["evil.example", "/login"],
      ["app.example.evil.example", "/"],
      [`127.0.0.1:${new URL(production.url).port}`, "/api/health"],
      ["[::2]", "/api/health"],
    ] as const) {
      const answer = await send(production, host, path);
      expect([host, path, answer.status, answer.type, answer.body]).toEqual([
        host,
        path,
        400,
        "application/json",
        REFUSAL,
      ]);
    }
  });

  it("runs no route for a refused host: a sign-up for evil.example stores no user", async () => {
    const email = `host.check.${Date.now()}@example.com`;
    const form = new URLSearchParams({ email, password: "correct horse battery" }).toString();
    const refused = await send(production, "evil.example", "/signup", { method: "POST", form });
    expect([refused.status, refused.body]).toEqual([400, REFUSAL]);
    expect(await production.query("SELECT id FROM users WHERE email = ?", email)).toEqual([]);
    const served = await send(production, "app.example", "/signup", { method: "POST", form });
    expect(served.status).toBe(303);
    expect(await production.query("SELECT id FROM users WHERE email = ?", email)).toHaveLength(1);
  });

  it("refuses a request without a Host", async () => {
    // HTTP/1.0 lets a client leave Host out (Node itself refuses an HTTP/1.1 request without one).
    const { port } = new URL(production.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.end("GET /api/health HTTP/1.0\r\n\r\n");
      });
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (text += chunk));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.[01] 400 /);
    expect(raw.endsWith(REFUSAL)).toBe(true);
  });
});

describe("the host check in development", () => {
  it("is off: any host is served", async () => {
    for (const host of ["evil.example", "127.0.0.1", "localhost:3000"]) {
      expect([host, (await send(development, host)).status]).toEqual([host, 200]);
    }
  });
});
