import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

// The app's clock runs on the real one, moved ahead on demand: a password change ends the
// sign-ins made before it in whole seconds, so the test moves past the second of the other
// browser's sign-in instead of waiting for it.
let skewMs = 0;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer({}, { clock: () => Date.now() + skewMs });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const OLD_EMAIL = "old.address@example.com";
const NEW_EMAIL = "new.address@example.org";
const FIRST_PASSWORD = "first passphrase";
const SECOND_PASSWORD = "second passphrase";

async function text(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? "";
}

async function logIn(page: Page, password: string): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByLabel("Email").fill(OLD_EMAIL);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** The row of the open `/dev/mail` page listing the mail to `to` titled `subject`. */
function mailRow(page: Page, to: string, subject: string): Locator {
  return page
    .getByRole("row")
    .filter({ hasText: to })
    .filter({ has: page.getByRole("link", { name: subject, exact: true }) });
}

async function userRow() {
  const [row] = await server.query<{
    email: string;
    confirmed_at: string | null;
    name: string | null;
    credentials_changed_at: string | null;
  }>("SELECT email, confirmed_at, name, credentials_changed_at FROM users");
  return row;
}

describe("the account lifecycle in Chromium", () => {
  // About twenty pages in two browsers on a shared CPU: more than the default limit.
  it("changes the password (signing the other browser out), the email address and the name", {
    timeout: 40_000,
  }, async () => {
    const page = await browser.newPage();
    const elsewhere = await browser.newContext();
    try {
      await page.goto(`${server.url}/signup`);
      await page.getByLabel("Email").fill(OLD_EMAIL);
      await page.getByLabel("Password (8 to 128 characters)").fill(FIRST_PASSWORD);
      await page.getByRole("button", { name: "Sign up" }).click();
      await page.waitForURL(`${server.url}/account`);

      const otherPage = await elsewhere.newPage();
      await logIn(otherPage, FIRST_PASSWORD);
      await otherPage.waitForURL(`${server.url}/`);
      // The change comes in a later second than that sign-in.
      skewMs += 1_000;

      await page.getByRole("link", { name: "Change your password" }).click();
      await page.waitForURL(`${server.url}/account/password`);
      expect(await page.getByLabel("Sign out my other sessions").isChecked()).toBe(true);
      await page.getByLabel("Current password").fill(FIRST_PASSWORD);
      await page.getByLabel("New password", { exact: true }).fill(SECOND_PASSWORD);
      await page.getByLabel("Confirm the new password").fill(SECOND_PASSWORD);
      await page.getByRole("button", { name: "Change password" }).click();
      await page.waitForURL(`${server.url}/account`);
      expect(await text(page.getByRole("status"))).toContain("Your password has been changed.");
      expect((await userRow())?.credentials_changed_at).not.toBeNull();

      // The browser that made the change stays signed in; the one signed in before it does not.
      await page.reload();
      expect(page.url()).toBe(`${server.url}/account`);
      await otherPage.goto(`${server.url}/account`);
      expect(otherPage.url()).toBe(`${server.url}/login`);
      expect(await text(otherPage.getByRole("alert"))).toContain("Please log in to continue.");

      await page.getByRole("button", { name: "Log out" }).click();
      await page.waitForURL(`${server.url}/`);
      await logIn(page, FIRST_PASSWORD);
      expect(await text(page.locator(".error-summary"))).toContain("Invalid email or password.");
      await logIn(page, SECOND_PASSWORD);
      await page.waitForURL(`${server.url}/`);
      expect(await text(page.getByRole("status"))).toContain("Signed in.");

      await page.goto(`${server.url}/account`);
      await page.getByRole("link", { name: "Change your email address" }).click();
      await page.waitForURL(`${server.url}/account/email`);
      await page.getByLabel("New email address").fill(NEW_EMAIL);
      await page.getByLabel("Current password").fill(SECOND_PASSWORD);
      await page.getByRole("button", { name: "Send a confirmation link" }).click();
      await page.waitForURL(`${server.url}/account`);
      expect(await text(page.getByRole("status"))).toContain(
        "Check your new address for a confirmation link.",
      );
      // Nothing changes until the new address confirms.
      expect(await text(page.locator("dl.facts"))).toContain(OLD_EMAIL);

      await page.goto(`${server.url}/dev/mail`);
      expect(await mailRow(page, OLD_EMAIL, "Your password was changed").count()).toBe(1);
      expect(await mailRow(page, OLD_EMAIL, "Your email address is being changed").count()).toBe(1);
      await mailRow(page, NEW_EMAIL, "Confirm your new email address").getByRole("link").click();
      await page.waitForURL(/\/dev\/mail\/[^/]+$/);
      // Opened by its address: Playwright's click on this link, below the mail's sandboxed
      // frame, often never reached the page in Debian's Chromium.
      const link = await page
        .locator("pre.mail-text")
        .getByRole("link", { name: /\/email_changes\// })
        .getAttribute("href");
      expect(new URL(link ?? "", server.url).origin).toBe(server.url);
      await page.goto(link!);
      expect(await text(page.locator("main"))).toContain(
        `Make ${NEW_EMAIL} the address of your account?`,
      );
      await page.getByRole("button", { name: "Confirm", exact: true }).click();
      await page.waitForURL(`${server.url}/account`);
      expect(await text(page.getByRole("status"))).toContain(
        "Your email address has been changed.",
      );
      expect(await text(page.locator("dl.facts"))).toContain(NEW_EMAIL);
      const changed = await userRow();
      expect(changed?.email).toBe(NEW_EMAIL);
      expect(changed?.confirmed_at).not.toBeNull();

      await page.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL(`${server.url}/account`);
      expect(await text(page.getByRole("status"))).toContain("Your profile has been updated.");
      await page.reload();
      expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Ada Lovelace");
      expect((await userRow())?.name).toBe("Ada Lovelace");
    } finally {
      await elsewhere.close();
      await page.close();
    }
  });
});
