import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import type { SignInMethod } from "../src/index.js";
import {
  fullSignInToken,
  mfaTokenOf,
  PASSWORD,
  sessionFactors,
  type TwoFactorApp,
  twoFactorApp,
  withTotpAndPasskey,
} from "./two-factor-app.js";

type User = Awaited<ReturnType<typeof withTotpAndPasskey>>;

/** The last mail's link to `path` (`/magic_link`, `/passwords`). */
function mailedLink(subject: TwoFactorApp, path: string): string {
  const text = subject.mailer.sent.at(-1)?.text ?? "";
  const link = new RegExp(`${path}/[A-Za-z0-9_-]{43}`).exec(text)?.[0];
  if (!link) throw new Error(`no ${path} link in the last mail`);
  return link;
}

/**
 * Each way in, by the first step it proves, walked up to the point where it must ask for the
 * second factor. A method added to `SignInMethod` does not compile here until its ways in are
 * listed; the provider callback is walked in @tessera/oauth's tests, where providers live.
 */
const WAYS_IN: Record<
  SignInMethod,
  Record<string, ((subject: TwoFactorApp, user: User) => Promise<void>) | "oauth package">
> = {
  password: {
    "POST /api/auth/token": async (subject, { email }) => {
      await mfaTokenOf(await subject.call("/api/auth/token", { email, password: PASSWORD }));
    },
    "POST /login": async (subject, { email }) => {
      const login = await subject.browser().form("/login", { email, password: PASSWORD });
      expect(login.headers.get("location")).toBe("/login/second_factor");
    },
    "POST /api/auth/reauthenticate": async (subject, user) => {
      const bearer = await fullSignInToken(subject, user);
      subject.signIns.length = 0;
      await mfaTokenOf(
        await subject.call("/api/auth/reauthenticate", { password: PASSWORD }, bearer),
      );
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
      await mfaTokenOf(await subject.call("/api/auth/token", { email, password: newPassword }));
    },
  },
  email_link: {
    "POST /magic_link/{token}": async (subject, { email }) => {
      const page = subject.browser();
      expect((await page.form("/magic_link", { email })).status).toBe(303);
      await expect.poll(() => subject.mailer.sent.length).toBeGreaterThan(0);
      const used = await page.form(mailedLink(subject, "/magic_link"));
      expect(used.headers.get("location")).toBe("/login/second_factor");
    },
  },
  email_code: {
    "POST /api/auth/token/email_code": async (subject, { email }) => {
      expect((await subject.call("/api/auth/email_code", { email })).status).toBe(202);
      const code = /^(\d{6})$/m.exec(subject.mailer.sent.at(-1)!.text)![1];
      await mfaTokenOf(await subject.call("/api/auth/token/email_code", { email, code }));
    },
  },
  passkey: {
    "POST /api/auth/passkeys/login, without user verification": async (subject, user) => {
      const options = await subject.call("/api/auth/passkeys/login/options", {});
      const { challenge_id } = (await options.json()) as { challenge_id: string };
      const response = await user.authenticator.authenticate(challenge_id, {
        userVerified: false,
      });
      await mfaTokenOf(await subject.call("/api/auth/passkeys/login", { challenge_id, response }));
    },
    "POST /login/passkey, without user verification": async (subject, user) => {
      const page = subject.browser();
      const options = await page.json("/login/passkey/options");
      const { challenge_id } = (await options.json()) as { challenge_id: string };
      const response = await user.authenticator.authenticate(challenge_id, {
        userVerified: false,
      });
      const first = await page.json("/login/passkey", { challenge_id, response });
      expect(await first.json()).toEqual({ location: "/login/second_factor" });
    },
  },
  oauth: { "GET /auth/{provider}/callback": "oauth package" },
};

describe("once a user has a second factor, every way in asks for it", () => {
  for (const [method, ways] of Object.entries(WAYS_IN)) {
    for (const [way, walk] of Object.entries(ways)) {
      if (walk === "oauth package") continue;
      it(`${way} (${method})`, async () => {
        const subject = await twoFactorApp();
        const user = await withTotpAndPasskey(subject);
        await walk(subject, user);
        // Nobody was signed in by the first step alone: no device, no sign-in announced.
        expect(await sessionFactors(subject, user.email)).toEqual([]);
        expect(subject.signIns).toEqual([]);
      });
    }
  }

  it("and a passkey that verified its user is both factors, as its token says", async () => {
    const subject = await twoFactorApp();
    const { authenticator } = await withTotpAndPasskey(subject);
    const options = await subject.call("/api/auth/passkeys/login/options", {});
    const { challenge_id } = (await options.json()) as { challenge_id: string };
    const response = await authenticator.authenticate(challenge_id);
    const granted = await subject.call("/api/auth/passkeys/login", { challenge_id, response });
    expect(granted.status).toBe(200);
    const { token } = (await granted.json()) as { token: string };
    expect(decodeJwt(token)).toMatchObject({
      amr: ["passkey", "user_verification"],
      auth_time: Math.floor(subject.clock.now / 1000),
    });
  });
});

describe("a granted token", () => {
  it("is an answer no cache keeps, as a secret shown once", async () => {
    const subject = await twoFactorApp();
    const email = `ada-${crypto.randomUUID()}@example.com`;
    await subject.call("/api/auth/signup", { email, password: PASSWORD });
    const granted = await subject.call("/api/auth/token", { email, password: PASSWORD });
    expect(granted.status).toBe(200);
    expect(granted.headers.get("cache-control")).toBe("no-store");
  });
});

describe("the token of a sign-in says how it was made", () => {
  it("the password, then the second factor", async () => {
    const subject = await twoFactorApp();
    const user = await withTotpAndPasskey(subject);
    const claims = decodeJwt(await fullSignInToken(subject, user));
    expect(claims.amr).toEqual(["password", "totp"]);
    expect(claims.auth_time).toBe(Math.floor(subject.clock.now / 1000));
    expect(claims.auth_time).toBe(claims.iat);
  });
});
