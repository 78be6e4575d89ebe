// Passkeys and two-factor codes in real Chromium, with a virtual authenticator (CDP's WebAuthn
// domain): a passkey added on /account/security signs the user in from /login after signing
// out, and after a password the second-factor page takes a code from the authenticator app
// enrolled on the same page. The app runs at http://localhost:<port>: WebAuthn refuses an IP
// address as the relying party, and Chromium resolves localhost to the loopback itself.
import { createServer } from "node:net";
import { totpCode } from "@tessera/accounts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, watchPage } from "./support/chromium.js";
import { startTestServer, type TestServer } from "./support/test-server.js";
import { decodeTotpKey } from "./support/totp-key.js";

let server: TestServer;
let browser: Browser;
let origin: string;

/** A port free now, so APP_URL can name it before the app listens. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  [server, browser] = await Promise.all([
    startTestServer({ PORT: String(port), APP_URL: origin }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A platform authenticator that verifies its user (a fingerprint, say) on every request. */
async function addVirtualAuthenticator(page: Page): Promise<void> {
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
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL(`${origin}/`);
}

describe("passkeys and two-factor codes in Chromium", () => {
  it("adds a passkey and TOTP on /account/security, signs in with the passkey, then with a code", {
    timeout: 90_000,
  }, async () => {
    const page = await browser.newPage();
    const reports = await watchPage(page);
    await addVirtualAuthenticator(page);
    const email = `passkeys.${Date.now()}@example.com`;
    const password = "a long passphrase";

    await page.goto(`${origin}/signup`);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password (8 to 128 characters)").fill(password);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForURL(`${origin}/account`);
    await page.getByRole("link", { name: "Two-factor authentication and passkeys" }).click();
    await page.waitForURL(`${origin}/account/security`);

    // A passkey: the page's script asks the authenticator, the server verifies, the page reloads.
    await page.locator("#field-passkey-name").fill("Test laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    // Waited for as an event, not polled for a second: the first passkey request also imports
    // the WebAuthn library, which takes longer than that on a busy machine.
    await page.getByText("Passkey added.", { exact: true }).waitFor();
    expect(await page.getByText("Passkey added.", { exact: true }).count()).toBe(1);
    expect(await page.getByRole("rowheader", { name: "Test laptop" }).count()).toBe(1);

    // TOTP: the QR code inline and the key as text; a code from it turns the codes on.
    await page.locator("#field-password-on").fill(password);
    await page.getByRole("button", { name: "Turn on two-factor codes" }).click();
    expect(await page.locator(".qr svg").count()).toBe(1);
    const key = decodeTotpKey((await page.locator("#totp-secret").textContent()) ?? "");
    const confirmedAt = Date.now();
    await page.getByLabel("Code").fill(totpCode(key, confirmedAt));
    await page.getByRole("button", { name: "Turn on", exact: true }).click();
    expect(await page.locator(".backup-codes li").count()).toBe(10);

    // Signed out, the passkey alone signs in: it verified its user, so no second step. First
    // through the email field's autofill (conditional UI), which the virtual authenticator
    // answers as soon as the page asks; then through the button, with autofill unavailable.
    await signOut(page);
    await page.goto(`${origin}/login`);
    await page.waitForURL(`${origin}/`);
    expect(await page.getByText("Signed in.", { exact: true }).count()).toBe(1);
    expect(await page.getByText(email).count()).toBeGreaterThan(0);
    await signOut(page);
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
    await page.goto(`${origin}/login`);
    expect(await page.getByLabel("Email", { exact: true }).getAttribute("autocomplete")).toBe(
      "username webauthn",
    );
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL(`${origin}/`);
    expect(await page.getByText("Signed in.", { exact: true }).count()).toBe(1);

    // After a password, the second-factor page offers the passkey and takes a TOTP code.
    await signOut(page);
    await page.goto(`${origin}/login`);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${origin}/login/second_factor`);
    expect(await page.getByRole("button", { name: "Use a passkey" }).count()).toBe(1);
    // The confirmation used its step's code: the next step's is the first one left.
    const code = totpCode(key, Math.max(Date.now(), confirmedAt + 30_000));
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(`${origin}/`);
    expect(await page.getByText("Signed in.", { exact: true }).count()).toBe(1);

    expect(await reports.violations()).toEqual([]);
    expect(reports.errors).toEqual([]);
    const rows = await server.query<{ name: string; counter: number }>(
      "SELECT name, counter FROM passkeys",
    );
    expect(rows.map((row) => row.name)).toEqual(["Test laptop"]);
  });
});
