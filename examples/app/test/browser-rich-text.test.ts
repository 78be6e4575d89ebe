// The rich_text editor in real Chromium: Trix, served by the app itself, turns what a person
// types and formats into HTML that is saved, shown and edited again.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchChromium,
  type PageReports,
  screenshotFolder,
  watchPage,
} from "./support/chromium.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const screenshots = screenshotFolder();
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * A page that records every console error, Content-Security-Policy violation and request that
 * left the app's origin.
 */
async function watchedPage(): Promise<{ page: Page; reports: PageReports; foreign: string[] }> {
  const page = await browser.newPage();
  const reports = await watchPage(page);
  const foreign: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(server.url)) foreign.push(request.url());
  });
  return { page, reports, foreign };
}

async function signUp(page: Page): Promise<number> {
  const email = `browser.rich.${Date.now()}@example.com`;
  await page.goto(`${server.url}/signup`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password (8 to 128 characters)").fill("a long passphrase");
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.waitForURL(`${server.url}/account`);
  const [user] = await server.query<{ id: number }>("SELECT id FROM users WHERE email = ?", email);
  return user!.id;
}

describe("the rich_text editor", () => {
  // A longer limit than the default: several pages, a sign-up and a real editor on a shared CPU.
  it("saves text made bold in Trix as <strong>, shows it bold and edits it again", {
    timeout: 60_000,
  }, async () => {
    const { page, reports, foreign } = await watchedPage();
    const userId = await signUp(page);
    const assets: Record<string, number> = {};
    page.on("response", (response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith("/assets/")) assets[path] = response.status();
    });

    await page.goto(`${server.url}/posts/new`);
    await page.getByLabel("Title", { exact: true }).fill("Formatted");
    const editor = page.getByLabel("Body", { exact: true });
    // Trix has started: the editor is editable and has its toolbar.
    expect(await editor.evaluate((element) => element.tagName)).toBe("TRIX-EDITOR");
    await page.locator("trix-toolbar").waitFor();
    expect(await editor.getAttribute("contenteditable")).toBe("");

    // Type, then select a word and format it: bold with Ctrl+B, italic with the toolbar.
    // The words are selected through Trix's own API: arrow keys pressed right after typing can
    // race the editor's input handling, which made the selection land one character off.
    const select = (word: string) =>
      editor.evaluate((element, text) => {
        const trix = element as HTMLElement & {
          editor: {
            getDocument(): { toString(): string };
            setSelectedRange(range: number[]): void;
          };
        };
        const start = trix.editor.getDocument().toString().indexOf(text);
        trix.editor.setSelectedRange([start, start + text.length]);
      }, word);
    await editor.click();
    await page.keyboard.type("Plain then bold and italic");
    await expect.poll(() => page.locator("#field-body-input").inputValue()).toContain("italic");
    await select("bold");
    await page.keyboard.press("Control+b");
    await select("italic");
    await page.getByRole("button", { name: "Italic" }).click();
    await expect
      .poll(() => page.locator("#field-body-input").inputValue())
      .toBe("<div>Plain then <strong>bold</strong> and <em>italic</em></div>");
    await page.screenshot({ path: `${screenshots}post-rich-text-editor.png`, fullPage: true });

    await page.getByRole("button", { name: "Create post" }).click();
    await page.waitForURL(/\/posts\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").at(-1));
    const [row] = await server.query<{ body: string; user_id: number }>(
      "SELECT body, user_id FROM posts WHERE id = ?",
      id,
    );
    expect(row).toEqual({
      body: "<div>Plain then <strong>bold</strong> and <em>italic</em></div>",
      user_id: userId,
    });

    // The show page renders it: a strong element with the text, in a bold weight.
    const bold = page.locator(".rich-text strong");
    expect(await bold.textContent()).toBe("bold");
    expect(Number(await bold.evaluate((element) => getComputedStyle(element).fontWeight))).toBe(
      700,
    );
    expect(await page.locator(".rich-text em").textContent()).toBe("italic");
    // The show page has no editor, so it does not load Trix.
    expect(await page.locator('script[src="/assets/trix.js"]').count()).toBe(0);

    // The edit form loads the stored HTML into the editor.
    await page.getByRole("link", { name: "Edit" }).click();
    await page.waitForURL(`${server.url}/posts/${id}/edit`);
    await page.locator("trix-toolbar").waitFor();
    expect(await page.locator("trix-editor strong").textContent()).toBe("bold");

    expect(assets).toMatchObject({
      "/assets/trix.js": 200,
      "/assets/trix.css": 200,
      "/assets/rich-text.js": 200,
    });
    expect(foreign).toEqual([]);
    // Trix ran under the page's policy: its scripts and the style element it inserted carry
    // the nonce, and nothing was refused.
    expect(await reports.violations()).toEqual([]);
    expect(reports.errors).toEqual([]);
    await page.close();
  });

  it("refuses files, which rich text cannot keep, and hides the attach button", async () => {
    const { page, reports } = await watchedPage();
    await signUp(page);
    await page.goto(`${server.url}/posts/new`);
    await page.locator("trix-toolbar").waitFor();
    expect(await page.getByRole("button", { name: "Attach Files" }).isVisible()).toBe(false);
    const accepted = await page.locator("trix-editor").evaluate((element) => {
      const event = new CustomEvent("trix-file-accept", { bubbles: true, cancelable: true });
      return element.dispatchEvent(event);
    });
    // dispatchEvent is false when a listener called preventDefault: the file is refused.
    expect(accepted).toBe(false);
    expect(await reports.violations()).toEqual([]);
    expect(reports.errors).toEqual([]);
    await page.close();
  });
});
