import { existsSync, statSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, pageText } from "./support/browser.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1" });
});
afterAll(() => server.stop());

/** Bytes the database takes on disk: the file and its write-ahead log. */
function databaseBytes(): number {
  const wal = `${server.databasePath}-wal`;
  return statSync(server.databasePath).size + (existsSync(wal) ? statSync(wal).size : 0);
}

const MEGABYTE_EMAIL = `${"a".repeat(1_000_000)}@example.com`;

describe("mail routes under megabyte emails", () => {
  it("30 requests with 1 MB emails grow the database by less than 1 MB", async () => {
    const browser = new Browser(server.url);
    await browser.get("/");
    const before = databaseBytes();
    const answers = new Set<string>();
    for (let request = 0; request < 30; request++) {
      const path = request % 2 === 0 ? "/passwords" : "/magic_link";
      const response = await browser.post(path, { email: MEGABYTE_EMAIL });
      answers.add(`${response.status} ${response.location}`);
    }
    expect(databaseBytes() - before).toBeLessThan(1_000_000);
    expect(
      await server.query("SELECT key FROM rate_limit_counters WHERE length(key) > 256"),
    ).toEqual([]);
    // Every time the answer of an unknown address, which counts against no limit.
    expect([...answers]).toEqual(["303 /login"]);
  });

  it("answers a megabyte email with the flash of an unknown address", async () => {
    const browser = new Browser(server.url);
    await browser.post("/magic_link", { email: MEGABYTE_EMAIL });
    expect(pageText((await browser.get("/login")).html)).toContain(
      "If an account exists for that email, a sign-in link is on its way.",
    );
  });
});
