// A form refused before it was read, over a real socket: the answer says the connection
// closes, and it closes cleanly, with no reset under the client's still-arriving body.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerType } from "@hono/node-server";
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answersIn, exchangeOverSocket } from "../../../test/support/socket-exchange.js";
import { exampleApp } from "../src/app.js";
import { listen } from "../src/listen.js";
import { readSettings } from "../src/settings.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-example-hono-"));
let server: ServerType | undefined;
let base = "";
beforeAll(async () => {
  const { app } = await exampleApp({
    ...readSettings(
      { SECRET_KEY_BASE: "example-hono-test-".repeat(3), DATABASE_PATH: join(folder, "app.db") },
      "hono",
    ),
    mailer: new MemoryMailer(),
  });
  const listening = await listen(app, 0, "127.0.0.1");
  server = listening.server;
  base = `http://127.0.0.1:${listening.address.port}`;
});
afterAll(async () => {
  await new Promise((done) => server?.close(done));
  rmSync(folder, { recursive: true, force: true });
});

describe("the Hono example, given a chunked sign-up form far over its cap", () => {
  it("answers with Connection: close, and closes without a reset", async () => {
    const exchange = await exchangeOverSocket(base, {
      head: [
        "POST /signup HTTP/1.1",
        "Host: 127.0.0.1",
        "Content-Type: application/x-www-form-urlencoded",
        "Transfer-Encoding: chunked",
        "Sec-Fetch-Site: same-origin",
        "",
        "",
      ].join("\r\n"),
      bodyBytes: 6 * 1024 * 1024,
      chunked: true,
    });
    const answers = answersIn(exchange.received);
    expect(answers.map((answer) => [answer.status, answer.headers.connection])).toEqual([
      [413, "close"],
    ]);
    expect(exchange.error).toBeUndefined();
  });
});
