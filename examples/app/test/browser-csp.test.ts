// The pages' Content-Security-Policy in real Chromium: the app's scripts (Trix and its own) run
// with the page's nonce, and a script injected into the page without it does not.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, watchPage } from "./support/chromium.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

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

async function signUp(page: Page): Promise<void> {
  await page.goto(`${server.url}/signup`);
  await page.getByLabel("Email", { exact: true }).fill(`browser.csp.${Date.now()}@example.com`);
  await page.getByLabel("Password (8 to 128 characters)").fill("a long passphrase");
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.waitForURL(`${server.url}/account`);
}

/** Whether the page's scripts made Trix's editor work: its element defined, its toolbar shown. */
async function trixRan(page: Page): Promise<boolean> {
  await page.locator("trix-toolbar").waitFor();
  return page.evaluate(() => customElements.get("trix-editor") !== undefined);
}

/**
 * What an attacker's markup would add to a page: an inline script, an inline event handler and
 * a script with a guessed nonce, each setting a flag if it runs.
 */
const INJECTED = `<script>window.injectedInline = true</script>
<img src="/nothing.png" alt="" onerror="window.injectedHandler = true">
<script nonce="guessed">window.injectedGuess = true</script>`;

describe("the pages' Content-Security-Policy in Chromium", () => {
  // A longer limit than the default: a sign-up and two editor pages on a shared CPU.
  it("runs the page's own scripts with its nonce, and refuses injected ones", {
    timeout: 60_000,
  }, async () => {
    const page = await browser.newPage();
    const reports = await watchPage(page);
    await signUp(page);

    const response = await page.goto(`${server.url}/posts/new`);
    const policy = (await response!.allHeaders())["content-security-policy"] ?? "";
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(policy).not.toContain("unsafe-inline");
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await trixRan(page)).toBe(true);
    // The editor's script files and its stylesheet element run and apply under the policy.
    expect(await page.locator("script[src]").evaluateAll((scripts) => scripts.length)).toBe(2);
    expect(
      await page.evaluate(() => {
        const style = document.querySelector<HTMLStyleElement>(
          "style[data-tag-name='trix-editor']",
        );
        return (style?.sheet?.cssRules.length ?? 0) > 0;
      }),
    ).toBe(true);
    expect(await reports.violations()).toEqual([]);
    expect(reports.errors).toEqual([]);

    // The same page again, its markup carrying injected scripts and its real headers kept.
    await page.route(`${server.url}/posts/new`, async (route) => {
      const served = await route.fetch();
      const html = (await served.text()).replace("</head>", `${INJECTED}\n</head>`);
      await route.fulfill({ response: served, body: html });
    });
    await page.goto(`${server.url}/posts/new`);
    expect(await trixRan(page)).toBe(true);
    expect(
      await page.evaluate(() => {
        const flags = window as unknown as Record<string, unknown>;
        return [flags.injectedInline, flags.injectedHandler, flags.injectedGuess];
      }),
    ).toEqual([undefined, undefined, undefined]);
    const refused = await reports.violations();
    expect(refused.filter((violation) => violation.startsWith("script-src")).length).toBe(3);
    expect(refused.every((violation) => /^script-src(-elem|-attr)? inline$/.test(violation))).toBe(
      true,
    );
    await page.close();
  });
});
