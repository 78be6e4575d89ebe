// A person's round trip through the posts pages in real Chromium: a refused form that keeps
// what was typed, then create with a cover image, edit, and delete.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryMailer } from "@tessera/mail";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshotFolder, watchPage } from "./support/chromium.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const screenshots = screenshotFolder();
let uploads: string;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  uploads = mkdtempSync(join(tmpdir(), "tessera-browser-uploads-"));
  server = await startTestServer({ UPLOADS_PATH: uploads }, { mailer: new MemoryMailer() });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(uploads, { recursive: true, force: true });
});

async function text(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? "";
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${screenshots}${name}.png`, fullPage: true });
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
// A 1×1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

describe("the posts pages in a real browser", () => {
  // A longer limit than the default: a sign-up and five pages with a real editor, on a shared CPU.
  it("creates (after a refused form), shows, edits and deletes a post", {
    timeout: 60_000,
  }, async () => {
    const email = `browser.records.${Date.now()}@example.com`;
    const page = await browser.newPage();
    // Every page runs under its Content-Security-Policy: nothing it needs is refused.
    const reports = await watchPage(page);
    await page.goto(`${server.url}/signup`);
    await field(page, "Email").fill(email);
    await page.getByLabel("Password (8 to 128 characters)").fill("a long passphrase");
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForURL(`${server.url}/account`);
    const [user] = await server.query<{ id: number }>(
      "SELECT id FROM users WHERE email = ?",
      email,
    );
    const posts = () =>
      server.query<Record<string, unknown>>("SELECT * FROM posts WHERE user_id = ?", user!.id);

    await page.getByRole("link", { name: "Posts" }).click();
    await page.waitForURL(`${server.url}/posts`);
    expect(await text(page.locator("main"))).toContain("No posts yet.");
    await page.getByRole("link", { name: "New post" }).click();
    await page.waitForURL(`${server.url}/posts/new`);

    // A refused form: the page comes back (422) with the messages and what was typed. The body
    // is a Trix editor; its HTML is set through Trix's API (typing and formatting are tested in
    // browser-rich-text.test.ts).
    await page.locator("trix-toolbar").waitFor();
    await field(page, "Body").evaluate((element) =>
      (element as HTMLElement & { editor: { loadHTML(html: string): void } }).editor.loadHTML(
        "<div>My <strong>first</strong> post</div>",
      ),
    );
    await field(page, "Views").fill("lots");
    await field(page, "Publish on").fill("2024-02-29");
    await field(page, "Metadata").fill('{"mood": ');
    const refused = page.waitForResponse((response) => response.url().endsWith("/posts"));
    await page.getByRole("button", { name: "Create post" }).click();
    expect((await refused).status()).toBe(422);
    const summary = await text(page.locator(".error-summary"));
    expect(summary).toContain("3 errors stopped this form");
    expect(summary).toContain("Title can't be blank");
    expect(summary).toContain("Views is not a number");
    expect(summary).toContain("Metadata is not valid JSON");
    expect(await field(page, "Views").inputValue()).toBe("lots");
    expect(await page.locator("#field-body-input").inputValue()).toBe(
      "<div>My <strong>first</strong> post</div>",
    );
    expect(await page.locator("trix-editor strong").textContent()).toBe("first");
    expect(await field(page, "Publish on").inputValue()).toBe("2024-02-29");
    expect(await field(page, "Metadata").inputValue()).toBe('{"mood": ');
    expect(await field(page, "Views").getAttribute("aria-invalid")).toBe("true");
    expect(await posts()).toEqual([]);
    await shoot(page, "posts-form-errors");

    // The error summary links to the inputs it names.
    await page
      .locator(".error-summary")
      .getByRole("link", { name: "Title can't be blank" })
      .click();
    await field(page, "Title").fill("My first post");
    await field(page, "Views").fill("12");
    await field(page, "Metadata").fill('{"mood": "happy"}');
    await field(page, "Published").check();
    await field(page, "Status").selectOption("review");
    await field(page, "Cover").setInputFiles({
      name: "cover.png",
      mimeType: "image/png",
      buffer: PNG,
    });
    await page.getByRole("button", { name: "Create post" }).click();
    await page.waitForURL(/\/posts\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").at(-1));
    expect(await text(page.getByRole("status"))).toContain("Post was created.");
    const shown = await text(page.locator("main"));
    expect(shown).toContain("My first post");
    expect(shown).toContain("review");
    expect(await text(page.locator(".rich-text"))).toBe("My first post");
    expect(await page.locator(".rich-text strong").textContent()).toBe("first");
    expect(await page.getByRole("link", { name: "cover.png" }).getAttribute("href")).toBe(
      `/posts/${id}/cover`,
    );
    expect(await posts()).toEqual([
      expect.objectContaining({
        id,
        title: "My first post",
        published: 1,
        views: 12,
        publish_on: "2024-02-29",
        metadata: '{"mood":"happy"}',
        status: "review",
        cover_filename: "cover.png",
        cover_size: PNG.byteLength,
        lock_version: 0,
      }),
    ]);
    await shoot(page, "post-show");

    await page.getByRole("link", { name: "Edit" }).click();
    await page.waitForURL(`${server.url}/posts/${id}/edit`);
    expect(await field(page, "Title").inputValue()).toBe("My first post");
    expect(await field(page, "Published").isChecked()).toBe(true);
    await field(page, "Title").fill("My edited post");
    await field(page, "Published").uncheck();
    await field(page, "Views").fill("");
    await page.getByRole("button", { name: "Update post" }).click();
    await page.waitForURL(`${server.url}/posts/${id}`);
    expect(await text(page.getByRole("status"))).toContain("Post was updated.");
    expect(await text(page.locator("main"))).toContain("My edited post");
    expect((await posts())[0]).toMatchObject({
      title: "My edited post",
      published: 0,
      views: null,
      cover_filename: "cover.png",
      lock_version: 1,
    });

    await page.getByRole("button", { name: "Delete this post" }).click();
    await page.waitForURL(`${server.url}/posts`);
    expect(await text(page.getByRole("status"))).toContain("Post was deleted.");
    expect(await text(page.locator("main"))).toContain("No posts yet.");
    expect(await posts()).toEqual([]);
    expect(readdirSync(uploads)).toEqual([]);
    expect(await reports.violations()).toEqual([]);
    // The one error is the browser noting the refused form's status; no script failed.
    expect(reports.errors).toEqual([
      `Failed to load resource: the server responded with a status of 422 (Unprocessable Entity) ${server.url}/posts`,
    ]);
    await page.close();
  });
});
