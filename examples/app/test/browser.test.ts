import { MemoryMailer } from "@tessera/mail";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkIn } from "./support/browser.js";
import { launchChromium, screenshotFolder } from "./support/chromium.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const screenshots = screenshotFolder();
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

/** The text a locator shows, waiting for it to be there. */
async function text(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? "";
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${screenshots}${name}.png`, fullPage: true });
}

async function mailLink(email: string, path: string): Promise<string> {
  await server.deliverMail();
  const mail = mailer.last(email);
  if (!mail) throw new Error(`no mail to ${email}`);
  return linkIn(mail.text, path).path;
}

async function logOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL(`${server.url}/`);
  expect(await text(page.getByRole("status"))).toContain("Signed out.");
}

describe("the account flows in a real browser", () => {
  // A longer limit than the default: eleven pages and three mails, on a shared CPU.
  it("signs up, confirms, signs in by link, resets the password and logs in with it", {
    timeout: 60_000,
  }, async () => {
    const email = `browser.${Date.now()}@example.com`;
    const page = await browser.newPage();

    await page.goto(`${server.url}/signup`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password (8 to 128 characters)").fill("short");
    await page.getByRole("button", { name: "Sign up" }).click();
    expect(await text(page.locator(".error-summary"))).toContain(
      "Password is too short (minimum is 8 characters)",
    );
    expect(await page.getByLabel("Email").inputValue()).toBe(email);
    await shoot(page, "signup-errors");

    await page.getByLabel("Password (8 to 128 characters)").fill("first passphrase");
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForURL(`${server.url}/account`);
    expect(await text(page.getByRole("status"))).toContain("Welcome! Your account is ready.");
    await shoot(page, "account-unconfirmed");

    await page.goto(`${server.url}${await mailLink(email, "/confirmations")}`);
    await shoot(page, "confirmation");
    await page.getByRole("button", { name: "Confirm my email address" }).click();
    await page.waitForURL(`${server.url}/account`);
    expect(await text(page.getByRole("status"))).toContain(
      "Thanks, your email address is confirmed.",
    );
    expect(await text(page.locator("main"))).not.toContain("Please confirm your email address");
    await logOut(page);

    await page.goto(`${server.url}/magic_link`);
    await shoot(page, "magic-link-request");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.waitForURL(`${server.url}/login`);
    expect(await text(page.getByRole("status"))).toContain(
      "If an account exists for that email, a sign-in link is on its way.",
    );
    await shoot(page, "login");
    await page.goto(`${server.url}${await mailLink(email, "/magic_link")}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${server.url}/`);
    expect(await text(page.getByRole("status"))).toContain("Signed in.");
    await shoot(page, "home-signed-in");
    await logOut(page);

    await page.goto(`${server.url}/login`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Email me a reset link" }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.goto(`${server.url}${await mailLink(email, "/passwords")}`);
    await page.getByLabel("New password (8 to 128 characters)").fill("second passphrase");
    await page.getByLabel("New password again").fill("a typo here");
    await page.getByRole("button", { name: "Save the new password" }).click();
    expect(await text(page.locator(".error-summary"))).toContain(
      "Password confirmation doesn't match Password",
    );
    await shoot(page, "new-password-errors");
    await page.getByLabel("New password (8 to 128 characters)").fill("second passphrase");
    await page.getByLabel("New password again").fill("second passphrase");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await page.waitForURL(`${server.url}/login`);

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("first passphrase");
    await page.getByRole("button", { name: "Log in" }).click();
    expect(await text(page.locator(".error-summary"))).toContain("Invalid email or password.");
    await page.getByLabel("Password").fill("second passphrase");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${server.url}/`);
    expect(await text(page.getByRole("status"))).toContain("Signed in.");
    await page.close();
  });
});
