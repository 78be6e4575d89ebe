import { expect } from "vitest";
import type { SignInMethod } from "../src/index.js";
import {
  fullSignInToken,
  mfaTokenOf,
  PASSWORD,
  type TwoFactorApp,
  type withTotpAndPasskey,
} from "./two-factor-app.js";

/** A user of `withTotpAndPasskey`: TOTP on and a passkey. */
export type TwoFactorUser = Awaited<ReturnType<typeof withTotpAndPasskey>>;
type Browser = ReturnType<TwoFactorApp["browser"]>;

/** Where a way in waits for the second factor: a JSON `mfa_token`, or a browser at its page. */
export type PendingSignIn = { readonly mfaToken: string } | { readonly browser: Browser };

/** The last mail's link to `path` (`/magic_link`, `/passwords`). */
function mailedLink(subject: TwoFactorApp, path: string): string {
  const text = subject.mailer.sent.at(-1)?.text ?? "";
  const link = new RegExp(`${path}/[A-Za-z0-9_-]{43}`).exec(text)?.[0];
  if (!link) throw new Error(`no ${path} link in the last mail`);
  return link;
}

/** A browser's login that must wait at the second-step page. */
async function waitingBrowser(browser: Browser, answer: Response): Promise<PendingSignIn> {
  expect(answer.headers.get("location")).toBe("/login/second_factor");
  return { browser };
}

/**
 * Each way in of accounts, by the first step it proves, walked up to the point where it must
 * ask a user with a second factor for it, and where it then waits. A method added to
 * `SignInMethod` does not compile here until its ways in are listed; the provider callback is
 * walked in @tessera/oauth's tests, where providers live.
 */
export const WAYS_IN: Record<
  SignInMethod,
  Record<
    string,
    ((subject: TwoFactorApp, user: TwoFactorUser) => Promise<PendingSignIn>) | "oauth package"
  >
> = {
  password: {
    "POST /api/auth/token": async (subject, { email }) => ({
      mfaToken: await mfaTokenOf(
        await subject.call("/api/auth/token", { email, password: PASSWORD }),
      ),
    }),
    "POST /login": async (subject, { email }) => {
      const browser = subject.browser();
      return waitingBrowser(browser, await browser.form("/login", { email, password: PASSWORD }));
    },
    "POST /api/auth/reauthenticate": async (subject, user) => {
      const bearer = await fullSignInToken(subject, user);
      subject.signIns.length = 0;
      const asked = await subject.call("/api/auth/reauthenticate", { password: PASSWORD }, bearer);
      return { mfaToken: await mfaTokenOf(asked) };
    },
    "POST /passwords/{token}, then POST /api/auth/token": async (subject, { email }) => {
      const page = subject.browser();
      expect((await page.form("/passwords", { email })).status).toBe(303);
      await expect.poll(() => subject.mailer.sent.length).toBeGreaterThan(0);
      const newPassword = "a new password for the reset";
      const reset = await page.form(mailedLink(subject, "/passwords"), {
        password: newPassword,
        password_confirmation: newPassword,
      });
      expect(reset.headers.get("location")).toBe("/login");
      // The reset changed the password and kept the second factor, which the new one meets.
      const totp = await subject.database.all("SELECT user_id FROM user_totp");
      expect(totp).toHaveLength(1);
      const asked = await subject.call("/api/auth/token", { email, password: newPassword });
      return { mfaToken: await mfaTokenOf(asked) };
    },
  },
  email_link: {
    "POST /magic_link/{token}": async (subject, { email }) => {
      const browser = subject.browser();
      expect((await browser.form("/magic_link", { email })).status).toBe(303);
      await expect.poll(() => subject.mailer.sent.length).toBeGreaterThan(0);
      return waitingBrowser(browser, await browser.form(mailedLink(subject, "/magic_link")));
    },
  },
  email_code: {
    "POST /api/auth/token/email_code": async (subject, { email }) => {
      expect((await subject.call("/api/auth/email_code", { email })).status).toBe(202);
      const code = /^(\d{6})$/m.exec(subject.mailer.sent.at(-1)!.text)![1];
      const asked = await subject.call("/api/auth/token/email_code", { email, code });
      return { mfaToken: await mfaTokenOf(asked) };
    },
  },
  passkey: {
    "POST /api/auth/passkeys/login, without user verification": async (subject, user) => {
      const options = await subject.call("/api/auth/passkeys/login/options", {});
      const { challenge_id } = (await options.json()) as { challenge_id: string };
      const response = await user.authenticator.authenticate(challenge_id, {
        userVerified: false,
      });
      const asked = await subject.call("/api/auth/passkeys/login", { challenge_id, response });
      return { mfaToken: await mfaTokenOf(asked) };
    },
    "POST /login/passkey, without user verification": async (subject, user) => {
      const browser = subject.browser();
      const options = await browser.json("/login/passkey/options");
      const { challenge_id } = (await options.json()) as { challenge_id: string };
      const response = await user.authenticator.authenticate(challenge_id, {
        userVerified: false,
      });
      const first = await browser.json("/login/passkey", { challenge_id, response });
      expect(await first.json()).toEqual({ location: "/login/second_factor" });
      return { browser };
    },
  },
  oauth: { "GET /auth/{provider}/callback": "oauth package" },
};
