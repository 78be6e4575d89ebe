// The app's request listener on its own, with a fetch handler that shows what it was given:
// the URL and Host every later reader sees, and the envelope for a handler that failed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { answersIn, exchangeOverSocket } from "../../../test/support/socket-exchange.js";
import { appRequestListener, SERVER_OPTIONS } from "../src/request-listener.js";

let server: Server;
let base = "";
beforeAll(async () => {
  const listener = appRequestListener(async (request) => {
    if (new URL(request.url).pathname === "/fail") throw new Error("the handler failed");
    return Response.json({ url: request.url, host: request.headers.get("host") });
  }, "127.0.0.1");
  server = createServer(SERVER_OPTIONS, listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

async function answerTo(head: string) {
  const [answer, ...more] = answersIn((await exchangeOverSocket(base, { head })).received);
  expect(more).toEqual([]);
  return { status: answer?.status, body: JSON.parse(answer!.body) as unknown };
}

describe("the app's request listener", () => {
  it("reads an empty port as none, in the URL and the Host header alike", async () => {
    expect(await answerTo("GET /a HTTP/1.1\r\nHost: app.example:\r\n\r\n")).toEqual({
      status: 200,
      body: { url: "http://app.example/a", host: "app.example" },
    });
  });

  it("gives an HTTP/1.0 request without Host the server's host, and refuses an HTTP/1.1 one", async () => {
    expect(await answerTo("GET /a HTTP/1.0\r\n\r\n")).toEqual({
      status: 200,
      body: { url: "http://127.0.0.1/a", host: null },
    });
    expect(await answerTo("GET /a HTTP/1.1\r\n\r\n")).toEqual({
      status: 400,
      body: { error: { code: "bad_request", message: "Bad request", status: 400 } },
    });
  });

  it("answers a handler that failed with the 500 envelope, and logs the error", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await answerTo("GET /fail HTTP/1.1\r\nHost: app.example\r\n\r\n")).toEqual({
        status: 500,
        body: { error: { code: "internal_error", message: "Internal server error", status: 500 } },
      });
      expect(logged.mock.calls.map(([, error]) => (error as Error).message)).toEqual([
        "the handler failed",
      ]);
    } finally {
      logged.mockRestore();
    }
  });
});
