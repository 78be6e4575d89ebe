import { describe, expect, it } from "vitest";
import {
  PASSWORD,
  SUSPENDED_MESSAGE,
  sessionFactors,
  type TwoFactorApp,
  twoFactorApp,
  withTotpAndPasskey,
} from "./two-factor-app.js";
import { type TwoFactorUser, WAYS_IN } from "./ways-in.js";

/** The JSON refusal's status, code and message. */
async function refusal(answer: Response) {
  const body = (await answer.json()) as { error: { code: string; message: string } };
  return { status: answer.status, code: body.error.code, message: body.error.message };
}

/** Nobody was signed in: no device, no sign-in announced. */
async function nobodySignedIn(subject: TwoFactorApp, user: TwoFactorUser) {
  expect(await sessionFactors(subject, user.email)).toEqual([]);
  expect(subject.signIns).toEqual([]);
}

describe("beforeSignIn refuses a suspended user on every way in, after the second factor", () => {
  for (const [method, ways] of Object.entries(WAYS_IN)) {
    for (const [way, walk] of Object.entries(ways)) {
      if (walk === "oauth package") continue;
      it(`${way} (${method})`, async () => {
        const subject = await twoFactorApp();
        const user = await withTotpAndPasskey(subject);
        const pending = await walk(subject, user);
        // Suspended once the first step is taken: the veto is asked only when a sign-in is granted.
        subject.suspended.add(user.email);
        const code = subject.nextCode(user.key);
        if ("mfaToken" in pending) {
          const answer = await subject.call("/api/auth/token/mfa", {
            mfa_token: pending.mfaToken,
            code,
          });
          expect(await refusal(answer)).toEqual({
            status: 403,
            code: "account_suspended",
            message: SUSPENDED_MESSAGE,
          });
        } else {
          const answered = await pending.browser.form("/login/second_factor", { code });
          expect(answered.headers.get("location")).toBe("/login");
          expect(await (await pending.browser.get("/login")).text()).toContain(SUSPENDED_MESSAGE);
          expect((await pending.browser.get("/account")).status).toBe(303);
        }
        await nobodySignedIn(subject, user);
      });
    }
  }

  it("a passkey that verified its user (both factors at once), over JSON and in the browser", async () => {
    const subject = await twoFactorApp();
    const user = await withTotpAndPasskey(subject);
    subject.suspended.add(user.email);
    const options = await subject.call("/api/auth/passkeys/login/options", {});
    const { challenge_id } = (await options.json()) as { challenge_id: string };
    const response = await user.authenticator.authenticate(challenge_id);
    const answer = await subject.call("/api/auth/passkeys/login", { challenge_id, response });
    expect(await refusal(answer)).toMatchObject({ status: 403, code: "account_suspended" });

    const browser = subject.browser();
    const pageOptions = await browser.json("/login/passkey/options");
    const { challenge_id: pageChallenge } = (await pageOptions.json()) as { challenge_id: string };
    const pageResponse = await user.authenticator.authenticate(pageChallenge);
    const signedIn = await browser.json("/login/passkey", {
      challenge_id: pageChallenge,
      response: pageResponse,
    });
    expect(await signedIn.json()).toEqual({ location: "/login" });
    await nobodySignedIn(subject, user);
  });

  it("POST /api/auth/reauthenticate of a token signed in before the suspension", async () => {
    const subject = await twoFactorApp();
    const email = `ada-${crypto.randomUUID()}@example.com`;
    expect((await subject.call("/api/auth/signup", { email, password: PASSWORD })).status).toBe(
      201,
    );
    const token = await subject.call("/api/auth/token", { email, password: PASSWORD });
    const { token: bearer } = (await token.json()) as { token: string };
    subject.suspended.add(email);
    const again = await subject.call("/api/auth/reauthenticate", { password: PASSWORD }, bearer);
    expect(await refusal(again)).toMatchObject({ status: 403, code: "account_suspended" });
  });

  it("the sign-up form: the account is made, nobody is signed in, the form says why", async () => {
    const subject = await twoFactorApp();
    const email = `eve-${crypto.randomUUID()}@example.com`;
    subject.suspended.add(email);
    const browser = subject.browser();
    const signedUp = await browser.form("/signup", { email, password: PASSWORD });
    expect(signedUp.headers.get("location")).toBe("/login");
    expect(await (await browser.get("/login")).text()).toContain(SUSPENDED_MESSAGE);
    expect((await browser.get("/account")).status).toBe(303);
    expect(
      await subject.database.all("SELECT id FROM users WHERE email = ?", [email]),
    ).toHaveLength(1);
    expect(subject.signIns).toEqual([]);
  });

  it("lets everyone else in, and a user whose suspension ended", async () => {
    const subject = await twoFactorApp();
    const email = `ada-${crypto.randomUUID()}@example.com`;
    await subject.call("/api/auth/signup", { email, password: PASSWORD });
    subject.suspended.add(email);
    expect((await subject.call("/api/auth/token", { email, password: PASSWORD })).status).toBe(403);
    subject.suspended.delete(email);
    expect((await subject.call("/api/auth/token", { email, password: PASSWORD })).status).toBe(200);
    expect(subject.signIns).toEqual([["password", "token", email]]);
  });
});
