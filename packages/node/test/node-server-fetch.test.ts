// settleUnreadBodies on @hono/node-server, over real sockets: an answer given before the body
// was read to its end reaches the client, and the connection then closes cleanly or serves
// the client's next request.
import { connect, type Socket } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { jsonError, readBodyBytes } from "@tessera/http";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answersIn, exchangeOverSocket } from "../../../test/support/socket-exchange.js";
import { settleUnreadBodies } from "../src/index.js";

const MiB = 1024 * 1024;

/** The server-side socket of the last request to /refuse, for the linger test. */
let lastSocket: Socket | undefined;

const app = new Hono();
app.post("/capped", async (context) => {
  const body = await readBodyBytes(context.req.raw, 1024);
  return body.ok ? context.json({ bytes: body.value.byteLength }) : jsonError(413, "Too large");
});
app.post("/refuse", (context) => {
  lastSocket = (context.env as { incoming: { socket: Socket } }).incoming.socket;
  return jsonError(401, "Unauthorized");
});
app.get("/ping", (context) => context.text("pong"));

let server: ServerType;
let base = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = serve(
      { fetch: settleUnreadBodies(app.fetch), port: 0, hostname: "127.0.0.1" },
      (info) => {
        base = `http://127.0.0.1:${info.port}`;
        resolve();
      },
    );
  });
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const post = (path: string, framing: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${framing}\r\n\r\n`;
const PING = "GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

describe("settleUnreadBodies on @hono/node-server", () => {
  it("answers a chunked body over the cap with Connection: close, and closes without a reset", async () => {
    const exchange = await exchangeOverSocket(base, {
      head: post("/capped", "Transfer-Encoding: chunked"),
      bodyBytes: 3 * MiB,
      chunked: true,
    });
    const answers = answersIn(exchange.received);
    expect(answers.map((answer) => [answer.status, answer.headers.connection])).toEqual([
      [413, "close"],
    ]);
    expect(JSON.parse(answers[0]!.body)).toEqual({
      error: { code: "payload_too_large", message: "Too large", status: 413 },
    });
    expect(exchange.error).toBeUndefined();
  });

  it("drains a small unread rest and serves the next request on the same connection", async () => {
    const exchange = await exchangeOverSocket(base, {
      head: post("/refuse", "Content-Length: 100000"),
      bodyBytes: 100_000,
      next: PING,
    });
    const answers = answersIn(exchange.received);
    expect(answers.map((answer) => [answer.status, answer.headers.connection])).toEqual([
      [401, "keep-alive"],
      [200, "keep-alive"],
    ]);
    expect(answers[1]!.body).toBe("pong");
  });

  it("keeps lingering when @hono/node-server's drain asks to close the socket again", async () => {
    const { hostname, port } = new URL(base);
    // Half-open, as a browser still sending its form after the answer: the server's end of
    // the connection does not end the client's sending.
    const client = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    let received = "";
    let error: string | undefined;
    client.setEncoding("latin1");
    client.on("data", (data: string) => (received += data));
    client.on("error", (failure: NodeJS.ErrnoException) => (error = failure.code));
    const closed = new Promise((resolve) => client.on("close", resolve));
    // A declared megabyte, far over what is drained: answered at once, then the close lingers.
    client.write(post("/refuse", `Content-Length: ${MiB}`));
    client.write(Buffer.alloc(64 * 1024));
    await new Promise((resolve) => client.once("end", resolve));
    // What @hono/node-server's drain does 500 ms after the answer when the body is still coming.
    lastSocket!.destroySoon();
    client.end(Buffer.alloc(MiB - 64 * 1024));
    await closed;
    expect(answersIn(received).map((answer) => [answer.status, answer.headers.connection])).toEqual(
      [[401, "close"]],
    );
    expect(error).toBeUndefined();
  });

  it("passes GET answers through untouched", async () => {
    const exchange = await exchangeOverSocket(base, { head: PING, next: PING });
    expect(answersIn(exchange.received).map((answer) => answer.body)).toEqual(["pong", "pong"]);
  });
});
