import { MemoryMailer } from "@tessera/mail";
import Database from "better-sqlite3";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const mailer = new MemoryMailer();
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer({}, { mailer });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * Stores a mail in the app's outbox as if the app had sent it: a hostile one, which no account
 * route would write, to see that the preview shows it without running any of it.
 */
function storeMail(key: string, mail: Record<string, string>) {
  const database = new Database(server.databasePath);
  try {
    const now = Date.now();
    database
      .prepare(
        `INSERT INTO outbox_items (queue, idempotency_key, payload, status, attempts, run_at, created_at, updated_at, finished_at)
         VALUES ('mail', ?, ?, 'done', 1, ?, ?, ?, ?)`,
      )
      .run(key, JSON.stringify(mail), now, now, now, now);
  } finally {
    database.close();
  }
}

describe("the mail preview in Chromium", () => {
  it("lists a mail, shows its HTML in a frame that runs no script, and its links work", async () => {
    storeMail("hostile-1", {
      to: "ada@example.com",
      subject: "<script>window.pwned = 1</script>Welcome",
      text: "Open https://app.example/confirmations/abc to confirm.",
      html: `<p id="greeting">Hi Ada</p><script>parent.document.title = "pwned"; document.body.append(Object.assign(document.createElement("b"), { id: "ran" }))</script><a href="https://app.example/confirmations/abc">Confirm</a>`,
    });
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/dev/mail`);
      const row = page.getByRole("row", { name: /ada@example\.com/ });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.getByRole("cell").nth(3).textContent()).toBe("sent");
      await page.getByRole("link", { name: "<script>window.pwned = 1</script>Welcome" }).click();
      await page.waitForURL(`${server.url}/dev/mail/hostile-1`);
      expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
      const frame = page.frameLocator("iframe.mail-html");
      expect(await frame.locator("#greeting").textContent()).toBe("Hi Ada");
      expect(await frame.locator("#ran").count()).toBe(0);
      expect(await page.title()).not.toBe("pwned");
      // The page's policy would stop the script too; the sandbox also gives the mail an origin
      // of its own, so nothing in it can reach the app's page (nor the page into it).
      expect(
        await page.evaluate(
          () =>
            (document.querySelector("iframe.mail-html") as HTMLIFrameElement).contentDocument ===
            null,
        ),
      ).toBe(true);
      expect(await frame.getByRole("link", { name: "Confirm" }).getAttribute("href")).toBe(
        "https://app.example/confirmations/abc",
      );
      const textLink = page.locator("pre.mail-text").getByRole("link");
      expect(await textLink.getAttribute("href")).toBe("https://app.example/confirmations/abc");
    } finally {
      await page.close();
    }
  });
});
