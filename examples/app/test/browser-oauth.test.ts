import { createServer } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startOidcProvider,
  type TestOidcProvider,
} from "../../../packages/oauth/test/oidc-test-provider.js";
import { launchChromium, screenshotFolder } from "./support/chromium.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const screenshots = screenshotFolder();
let provider: TestOidcProvider;
let server: TestServer;
let browser: Browser;

/** A free port on 127.0.0.1: the app's address must be known before it starts (APP_URL). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider([`${appUrl}/auth/example/callback`]);
  server = await startTestServer({
    PORT: String(port),
    APP_URL: appUrl,
    EXAMPLE_CLIENT_ID: provider.clientId,
    EXAMPLE_CLIENT_SECRET: provider.clientSecret,
    EXAMPLE_ISSUER: provider.issuer,
    EXAMPLE_LABEL: "Example ID",
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.close();
});

describe("sign-in with an OpenID Connect provider in a real browser", () => {
  // A longer limit than the default: a provider's pages and the app's, on a shared CPU.
  it("offers the provider on the login page and creates a confirmed user without a password", {
    timeout: 60_000,
  }, async () => {
    provider.accounts.set("alice-at-example-id", {
      email: "Alice.OAuth@Example.com",
      email_verified: true,
    });
    const page = await browser.newPage();
    await page.goto(`${server.url}/login`);
    await page.screenshot({ path: `${screenshots}login-with-provider.png`, fullPage: true });

    await page.getByRole("button", { name: "Continue with Example ID" }).click();
    await page.waitForURL(`${provider.issuer}/**`);
    await page.fill('input[name="login"]', "alice-at-example-id");
    await page.fill('input[name="password"]', "anything");
    await page.click('button[type="submit"]');
    // The provider's consent page, then back to the app.
    await page.click('button[type="submit"]');
    await page.waitForURL(`${server.url}/`);
    expect(await page.getByRole("status").textContent()).toContain("Signed in.");
    expect(await page.locator("header").textContent()).toContain("alice.oauth@example.com");

    const [user] = await server.query<{
      password_digest: string;
      confirmed_at: string | null;
      id: number;
    }>(
      "SELECT id, password_digest, confirmed_at FROM users WHERE email = ?",
      "alice.oauth@example.com",
    );
    expect(user?.password_digest).toBe("");
    expect(user?.confirmed_at).not.toBeNull();
    expect(
      await server.query("SELECT provider, subject FROM identities WHERE user_id = ?", user!.id),
    ).toEqual([{ provider: "example", subject: "alice-at-example-id" }]);

    // A user without a password deletes the account by typing the email.
    await page.goto(`${server.url}/account`);
    await page.getByLabel("Your email address, to confirm").fill("alice.oauth@example.com");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await page.waitForURL(`${server.url}/`);
    expect(await server.query("SELECT id FROM identities WHERE user_id = ?", user!.id)).toEqual([]);
    await page.close();
  });
});
