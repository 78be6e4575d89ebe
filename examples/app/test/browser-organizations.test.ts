import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

// An organization's whole start in Chromium: its owner creates it on /orgs and invites a
// colleague, who signs up, confirms their address and accepts from the mails of /dev/mail, and
// then writes a project of the organization from its pages.
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer({});
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const OWNER = "founder@example.com";
const MEMBER = "colleague@example.com";
const PASSWORD = "a long enough passphrase";

async function text(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? "";
}

async function signUp(page: Page, email: string): Promise<void> {
  await page.goto(`${server.url}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password (8 to 128 characters)").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.waitForURL(`${server.url}/account`);
}

/** Opens the link of the mail to `to` titled `subject` from /dev/mail, by its address. */
async function followMailLink(page: Page, to: string, subject: string, path: string) {
  await page.goto(`${server.url}/dev/mail`);
  await page
    .getByRole("row")
    .filter({ hasText: to })
    .filter({ has: page.getByRole("link", { name: subject, exact: true }) })
    .getByRole("link")
    .first()
    .click();
  await page.waitForURL(/\/dev\/mail\/[^/]+$/);
  // Opened by its address: a click below the mail's sandboxed frame does not always land.
  const link = await page
    .locator("pre.mail-text")
    .getByRole("link", { name: new RegExp(path) })
    .getAttribute("href");
  await page.goto(link!);
}

describe("organizations in Chromium", () => {
  it("creates an organization, invites by mail, accepts the invitation, and writes a project as a member", {
    timeout: 40_000,
  }, async () => {
    const ownerContext = await browser.newContext();
    const memberContext = await browser.newContext();
    try {
      const owner = await ownerContext.newPage();
      await signUp(owner, OWNER);
      // The header's organization switcher: a disclosure, opened by its label.
      await owner.getByText("Your organizations").click();
      await owner.getByRole("link", { name: "All organizations, or a new one" }).click();
      await owner.waitForURL(`${server.url}/orgs`);
      expect(await text(owner.locator("main"))).toContain(
        "You are not a member of any organization yet.",
      );
      await owner.getByLabel("Name", { exact: true }).fill("Walk Team");
      await owner.getByRole("button", { name: "Create the organization" }).click();
      await owner.waitForURL(`${server.url}/orgs/walk-team`);
      expect(await text(owner.getByRole("status"))).toContain(
        "The organization Walk Team was created.",
      );
      expect(await text(owner.locator("main"))).toContain("Your role: owner.");

      await owner.getByLabel("Email address").fill(MEMBER);
      await owner.getByLabel("Role").selectOption("member");
      await owner.getByRole("button", { name: "Send the invitation" }).click();
      await owner.waitForURL(`${server.url}/orgs/walk-team`);
      expect(await text(owner.getByRole("status"))).toContain(
        `An invitation was sent to ${MEMBER}.`,
      );
      expect(await text(owner.locator("main"))).toContain(`${MEMBER} as member, until`);

      const member = await memberContext.newPage();
      await signUp(member, MEMBER);
      await followMailLink(member, MEMBER, "Confirm your email address", "/confirmations/");
      await member.getByRole("button", { name: "Confirm my email address" }).click();
      await followMailLink(member, MEMBER, "You're invited to join Walk Team", "/invitations/");
      expect(await text(member.locator("main"))).toContain(
        "You are invited to join Walk Team as member.",
      );
      await member.getByRole("button", { name: "Accept the invitation" }).click();
      await member.waitForURL(`${server.url}/orgs`);
      expect(await text(member.getByRole("status"))).toContain("You joined Walk Team as member.");
      await member.getByRole("link", { name: "Walk Team" }).click();
      await member.waitForURL(`${server.url}/orgs/walk-team`);
      expect(await text(member.locator("main"))).toContain(OWNER);

      // From the organization's page to its projects: the member writes one with the form, and
      // the owner sees who made it.
      await member.getByRole("link", { name: "Projects" }).click();
      await member.waitForURL(`${server.url}/orgs/walk-team/projects`);
      await member.getByRole("link", { name: "New project" }).click();
      await member.waitForURL(`${server.url}/orgs/walk-team/projects/new`);
      await member.getByLabel("Name").fill("Launch");
      await member.getByLabel("Status").selectOption("active");
      await member.getByRole("button", { name: "Create project" }).click();
      await member.waitForURL(new RegExp(`^${server.url}/orgs/walk-team/projects/\\d+$`));
      expect(await text(member.getByRole("status"))).toContain("Project was created.");
      expect(await text(member.locator("main"))).toContain("Launch");
      const [row] = await server.query<{ name: string; email: string }>(
        `SELECT projects.name, users.email FROM projects JOIN users ON users.id = projects.created_by`,
      );
      expect(row).toEqual({ name: "Launch", email: MEMBER });
    } finally {
      await ownerContext.close();
      await memberContext.close();
    }
  });
});
