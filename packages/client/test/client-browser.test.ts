// @tessera/client in Chromium: a page script bundled with esbuild from test/browser/front-end.ts
// (which imports @tessera/client as an app's bundle does) drives the running example app. From
// a front end on another origin (the app lists it in ALLOWED_ORIGINS: CORS, a preflight for the
// bearer header) it signs up, signs in and creates and lists posts; from a page on the app's own
// origin (a passkey's origin is the app's) it adds a passkey on a virtual authenticator (CDP's
// WebAuthn domain), signs out and signs in with it.
import { createServer, type Server } from "node:http";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, watchPage } from "../../../examples/app/test/support/chromium.js";
import {
  type AppUnderTest,
  newEmail,
  PASSWORD,
  startAppUnderTest,
} from "./support/app-under-test.js";

let app: AppUnderTest;
let browser: Browser;
let frontEnd: Server;
let frontEndOrigin: string;
let script: string;

/** The page of a front end whose service is at `api`. */
function pageHtml(api: string): string {
  return `<!doctype html><html data-api="${api}"><head><meta charset="utf-8"><title>Front end</title><script type="module" src="front-end.js"></script></head><body></body></html>`;
}

beforeAll(async () => {
  const bundled = await build({
    entryPoints: [new URL("./browser/front-end.ts", import.meta.url).pathname],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  script = bundled.outputFiles[0]!.text;
  // The front end's own server: the page and its script, nothing else.
  frontEnd = createServer((request, response) => {
    const [type, body] =
      request.url === "/front-end.js"
        ? ["text/javascript", script]
        : ["text/html", pageHtml(app.server.url.replace("127.0.0.1", "localhost"))];
    response.writeHead(200, { "content-type": `${type}; charset=utf-8` }).end(body);
  });
  await new Promise<void>((resolve) => frontEnd.listen(0, "127.0.0.1", resolve));
  frontEndOrigin = `http://localhost:${(frontEnd.address() as { port: number }).port}`;
  [app, browser] = await Promise.all([
    startAppUnderTest({ ALLOWED_ORIGINS: frontEndOrigin }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await new Promise((resolve) => frontEnd?.close(resolve));
});

/** A page with the front end loaded from `url`, its errors watched. */
async function frontEndPage(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const { errors } = await watchPage(page);
  await page.goto(url);
  await page.waitForFunction(() => "frontEnd" in window);
  return { page, errors };
}

describe("@tessera/client in Chromium", () => {
  it("signs up, signs in and keeps posts from a front end on another origin", async () => {
    const { page, errors } = await frontEndPage(`${frontEndOrigin}/`);
    const email = newEmail("browser");
    const results = await page.evaluate(
      async ({ email, password }) => {
        const id = await window.frontEnd.signUp(email, password);
        const signedIn = await window.frontEnd.signIn(email, password);
        const created = await window.frontEnd.createPost("From the browser");
        return { id, signedIn, created, titles: await window.frontEnd.postTitles() };
      },
      { email, password: PASSWORD },
    );
    expect(results).toEqual({
      id: expect.any(Number),
      signedIn: true,
      created: { status: 201, title: "From the browser" },
      titles: ["From the browser"],
    });
    // The tokens are where the page keeps them: a reload still signs the calls.
    await page.reload();
    await page.waitForFunction(() => "frontEnd" in window);
    expect(await page.evaluate(() => window.frontEnd.me())).toBe(email);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("adds a passkey on a virtual authenticator, then signs in with it, on the app's origin", {
    timeout: 60_000,
  }, async () => {
    // The page is served on the app's origin (answered by the test, not the app): the passkey's
    // relying party is the app's APP_URL.
    const page = await browser.newPage();
    const { errors } = await watchPage(page);
    await page.route(`${app.origin}/front-end/**`, (route) => {
      const javascript = route.request().url().endsWith(".js");
      return route.fulfill({
        contentType: javascript ? "text/javascript" : "text/html",
        body: javascript ? script : pageHtml(app.origin),
      });
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await page.goto(`${app.origin}/front-end/`);
    await page.waitForFunction(() => "frontEnd" in window);
    const email = newEmail("browser-passkey");
    const results = await page.evaluate(
      async ({ email, password }) => {
        await window.frontEnd.signUp(email, password);
        await window.frontEnd.signIn(email, password);
        const name = await window.frontEnd.registerPasskey("Chromium");
        await window.frontEnd.signOut();
        const signedOut = await window.frontEnd.me();
        const signedIn = await window.frontEnd.signInWithPasskey();
        return { name, signedOut, signedIn, me: await window.frontEnd.me() };
      },
      { email, password: PASSWORD },
    );
    expect(results).toEqual({ name: "Chromium", signedOut: undefined, signedIn: true, me: email });
    // The one refusal is the signed-out page's `me()`, which the browser reports.
    expect(errors).toEqual([
      `Failed to load resource: the server responded with a status of 401 (Unauthorized) ${app.origin}/api/auth/me`,
    ]);
    await page.close();
  });
});
