// Answers the app gives before it has read the whole request, over real sockets: a large form
// refused while the client is still sending it must reach the client, not a reset.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answersIn, exchangeOverSocket } from "../../../test/support/socket-exchange.js";
import { Browser } from "./support/browser.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const MiB = 1024 * 1024;

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1" });
  browser = new Browser(server.url);
  const signup = await browser.post("/signup", {
    email: `early.${Date.now()}@example.com`,
    password: "correct horse battery",
  });
  expect(signup.status).toBe(303);
});
afterAll(() => server.stop());

/** The head of a signed-in browser's form post to /posts, declaring `length` or chunked. */
function formPostHead(length: number | "chunked"): string {
  const { host } = new URL(server.url);
  const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  return [
    "POST /posts HTTP/1.1",
    `Host: ${host}`,
    "Content-Type: application/x-www-form-urlencoded",
    length === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${length}`,
    `X-Forwarded-For: ${browser.clientAddress}`,
    "Sec-Fetch-Site: same-origin",
    `Cookie: ${cookie}`,
    "",
    "",
  ].join("\r\n");
}

describe("a form far over the 4 MB cap, refused while it is still being sent", () => {
  it("gets the whole 413 page for a 20 MB form with Content-Length, then the close", async () => {
    const exchange = await exchangeOverSocket(server.url, {
      head: formPostHead(20 * 1000 * 1000),
      bodyBytes: 20 * 1000 * 1000,
    });
    const [answer, ...more] = answersIn(exchange.received);
    expect([answer?.status, answer?.headers.connection, more]).toEqual([413, "close", []]);
    expect(answer?.body).toContain("The form is larger than 4 MB.");
    expect(exchange.error).toBeUndefined();
  });

  it("answers a chunked one with Connection: close, and closes without a reset", async () => {
    const exchange = await exchangeOverSocket(server.url, {
      head: formPostHead("chunked"),
      bodyBytes: 6 * MiB,
      chunked: true,
    });
    const [answer, ...more] = answersIn(exchange.received);
    expect([answer?.status, answer?.headers.connection, more]).toEqual([413, "close", []]);
    expect(answer?.body).toContain("The form is larger than 4 MB.");
    expect(exchange.error).toBeUndefined();
  });
});
