import { sha256Hex } from "@tessera/crypto";
import { JSON_BODY_FAILURE_PREFIX } from "@tessera/http";
import { describe, expect, it } from "vitest";
import { noMailerMessage, RECENT_SIGN_IN_MS } from "../src/index.js";
import { emailChangeApp, LINK, ORIGIN, PASSWORD, refusal } from "./email-change-app.js";
import { fullSignInToken, twoFactorApp, withTotpAndPasskey } from "./two-factor-app.js";

const DAY = 24 * 3_600_000;

/** The pending changes as stored. */
const pendingRows = (subject: Awaited<ReturnType<typeof emailChangeApp>>) =>
  subject.database.all<{ user_id: number; new_email: string; digest: string }>(
    "SELECT user_id, new_email, digest FROM email_changes ORDER BY user_id",
  );

describe("POST /api/auth/email", () => {
  it("answers 202, mails a link to the new address and a notice to the old one, and changes nothing yet", async () => {
    const subject = await emailChangeApp();
    const { email, bearer } = await subject.signUp("ada@example.com");
    const asked = await subject.call(
      "/api/auth/email",
      { email: " Ada.Lovelace@Example.ORG ", current_password: PASSWORD },
      bearer,
    );
    expect(asked.status).toBe(202);
    expect(await asked.json()).toEqual({
      message: "Check your new address for a confirmation link.",
    });

    const link = subject.mailer.last("ada.lovelace@example.org")!;
    expect(link.subject).toBe("Confirm your new email address");
    const token = LINK.exec(link.text)![1]!;
    expect(link.text.split("\n")).toContain(`${ORIGIN}/email_changes/${token}`);
    expect(link.text).toContain("ada.lovelace@example.org");
    expect(link.text).toContain("valid for 24 hours and works once");
    expect(link.html).toContain(`<a href="${ORIGIN}/email_changes/${token}">`);

    const notice = subject.mailer.last(email)!;
    expect(notice.subject).toBe("Your email address is being changed");
    expect(notice.text).toContain("a•••@example.org");
    expect(notice.text).not.toContain("lovelace");
    expect(notice.text).toContain(`${ORIGIN}/passwords/new`);
    expect(notice.text).not.toContain(token);
    expect(subject.mailer.sent.map((mail) => mail.to)).toEqual(["ada.lovelace@example.org", email]);

    // Only the digest is kept, and the user is as they were.
    const [row] = await pendingRows(subject);
    expect(row).toMatchObject({ new_email: "ada.lovelace@example.org", digest: sha256Hex(token) });
    expect(await subject.emails()).toEqual([email]);
    expect(subject.emailChanges).toEqual([]);
  });

  it("refuses a wrong, missing or mistyped proof and a malformed body, sending nothing", async () => {
    const subject = await emailChangeApp();
    const { bearer } = await subject.signUp();
    const sentBefore = subject.mailer.sent.length;
    const email = "new@example.com";

    expect(await refusal(await subject.call("/api/auth/email", { email }), 401)).toMatchObject({
      code: "unauthenticated",
    });
    const wrong = await subject.call(
      "/api/auth/email",
      { email, current_password: "not it" },
      bearer,
    );
    expect(await refusal(wrong, 403)).toEqual({
      code: "invalid_credentials",
      message: "The password is incorrect.",
      status: 403,
    });
    const missing = await subject.call("/api/auth/email", { email }, bearer);
    expect((await refusal(missing, 400)).message).toBe(
      `${JSON_BODY_FAILURE_PREFIX}missing field \`current_password\``,
    );
    const numeric = await subject.call("/api/auth/email", { email, current_password: 7 }, bearer);
    expect((await refusal(numeric, 400)).message).toBe(
      `${JSON_BODY_FAILURE_PREFIX}current_password: invalid type: integer 7, expected a string`,
    );
    const noEmail = await subject.call("/api/auth/email", { current_password: PASSWORD }, bearer);
    expect((await refusal(noEmail, 400)).message).toBe(
      `${JSON_BODY_FAILURE_PREFIX}missing field \`email\``,
    );
    const nul = await subject.call(
      "/api/auth/email",
      { email: "a\u0000@example.com", current_password: PASSWORD },
      bearer,
    );
    expect((await refusal(nul, 400)).message).toBe(
      `${JSON_BODY_FAILURE_PREFIX}email: invalid value: NUL character in string`,
    );
    expect(subject.mailer.sent).toHaveLength(sentBefore);
    expect(await pendingRows(subject)).toEqual([]);
  });

  it("refuses an API key", async () => {
    const subject = await emailChangeApp();
    const { bearer } = await subject.signUp();
    const created = await subject.call("/api/auth/keys", { name: "ci" }, bearer);
    const { key } = (await created.json()) as { key: string };
    const asked = await subject.call(
      "/api/auth/email",
      { email: "new@example.com", current_password: PASSWORD },
      key,
    );
    expect((await refusal(asked, 403)).code).toBe("api_key_not_allowed");
    expect(await pendingRows(subject)).toEqual([]);
  });

  it("answers 422 for an invalid address and for a taken one, the user's own included", async () => {
    const subject = await emailChangeApp();
    const { email, bearer } = await subject.signUp();
    await subject.signUp("taken@example.com");
    const ask = (address: string) =>
      subject.call("/api/auth/email", { email: address, current_password: PASSWORD }, bearer);
    for (const [address, message] of [
      ["not an address", "is invalid"],
      ["", "can't be blank"],
      ["TAKEN@example.com", "has already been taken"],
      [` ${email.toUpperCase()}`, "has already been taken"],
    ] as const) {
      expect(await refusal(await ask(address), 422), address).toEqual({
        code: "validation_failed",
        message: "Validation failed",
        status: 422,
        fields: { email: [message] },
      });
    }
    expect(await pendingRows(subject)).toEqual([]);
  });

  it("lets a user without a password leave it out within 10 minutes of signing in, and not after", async () => {
    const subject = await emailChangeApp();
    const email = "grace@example.com";
    const now = subject.clock.now;
    await subject.stores.users.create({ email, passwordDigest: "", confirmedAt: now }, now);
    expect((await subject.call("/api/auth/email_code", { email })).status).toBe(202);
    const code = /^(\d{6})$/m.exec(subject.mailer.last(email)!.text)![1];
    const signedIn = await subject.call("/api/auth/token/email_code", { email, code });
    const { token } = (await signedIn.json()) as { token: string };
    const ask = () => subject.call("/api/auth/email", { email: "grace@new.example" }, token);
    expect((await ask()).status).toBe(202);
    subject.clock.now += RECENT_SIGN_IN_MS + 1000;
    expect((await refusal(await ask(), 403)).code).toBe("reauthentication_required");
  });

  it("asks a user with a second factor for a recent one beside the password", async () => {
    const subject = await twoFactorApp();
    const user = await withTotpAndPasskey(subject);
    const token = await fullSignInToken(subject, user);
    const body = { email: "ada@new.example", current_password: PASSWORD };
    expect((await subject.call("/api/auth/email", body, token)).status).toBe(202);
    subject.clock.now += RECENT_SIGN_IN_MS + 1000;
    expect((await refusal(await subject.call("/api/auth/email", body, token), 403)).code).toBe(
      "reauthentication_required",
    );
  });

  it("is limited per client, and per new address whatever the client", async () => {
    const subject = await emailChangeApp();
    const { bearer } = await subject.signUp();
    const ask = (email: string, from: string) =>
      subject.call("/api/auth/email", { email, current_password: PASSWORD }, bearer, { from });
    for (let index = 0; index < 10; index++) {
      expect((await ask(`n${index}@example.com`, "198.51.100.1")).status).toBe(202);
    }
    const overClient = await ask("other@example.com", "198.51.100.1");
    expect(overClient.status).toBe(429);
    expect(overClient.headers.get("retry-after")).not.toBeNull();

    for (let index = 2; index < 11; index++) {
      expect((await ask("target@example.com", `198.51.100.${index}`)).status).toBe(202);
    }
    expect((await ask("target@example.com", "198.51.100.20")).status).toBe(202);
    const overTarget = await ask("target@example.com", "198.51.100.21");
    expect(overTarget.status).toBe(429);
  });
});

describe("POST /api/auth/email/confirm", () => {
  it("gives the user the new address, confirmed, once, and announces it", async () => {
    const subject = await emailChangeApp();
    const { email, bearer } = await subject.signUp();
    const token = await subject.requestChange(bearer, "ada@new.example");
    const confirmed = await subject.call("/api/auth/email/confirm", { token });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({ id: 1, email: "ada@new.example" });
    const [row] = await subject.database.all<{ email: string; confirmed_at: string | null }>(
      "SELECT email, confirmed_at FROM users",
    );
    expect(row).toEqual({ email: "ada@new.example", confirmed_at: "2026-11-27 09:00:10" });
    expect(subject.emailChanges).toEqual([["ada@new.example", email]]);
    expect(await pendingRows(subject)).toEqual([]);

    const again = await subject.call("/api/auth/email/confirm", { token });
    expect((await refusal(again, 422)).fields).toEqual({ token: ["is invalid"] });
    // The account signs in with its new address only.
    const newSignIn = { email: "ada@new.example", password: PASSWORD };
    expect((await subject.call("/api/auth/token", newSignIn)).status).toBe(200);
    const oldSignIn = { email, password: PASSWORD };
    expect((await subject.call("/api/auth/token", oldSignIn)).status).toBe(401);
  });

  it("refuses an unknown, malformed, missing or expired token with the same 422", async () => {
    const subject = await emailChangeApp();
    const { email, bearer } = await subject.signUp();
    const invalid = {
      code: "validation_failed",
      message: "Validation failed",
      status: 422,
      fields: { token: ["is invalid"] },
    };
    const unknown = "A".repeat(43);
    expect(
      await refusal(await subject.call("/api/auth/email/confirm", { token: unknown }), 422),
    ).toEqual(invalid);
    expect(
      await refusal(await subject.call("/api/auth/email/confirm", { token: "abc" }), 422),
    ).toEqual(invalid);
    expect((await refusal(await subject.call("/api/auth/email/confirm", {}), 400)).message).toBe(
      `${JSON_BODY_FAILURE_PREFIX}missing field \`token\``,
    );

    const token = await subject.requestChange(bearer, "ada@new.example");
    subject.clock.now += DAY;
    expect(await refusal(await subject.call("/api/auth/email/confirm", { token }), 422)).toEqual(
      invalid,
    );
    expect(await subject.emails()).toEqual([email]);
    expect(subject.emailChanges).toEqual([]);
  });

  it("keeps a link valid until just before its 24 hours are up", async () => {
    const subject = await emailChangeApp();
    const { bearer } = await subject.signUp();
    await subject.call(
      "/api/auth/email",
      { email: "ada@new.example", current_password: PASSWORD },
      bearer,
    );
    subject.clock.now += DAY - 1000;
    const token = subject.linkTokenTo("ada@new.example");
    expect((await subject.call("/api/auth/email/confirm", { token })).status).toBe(200);
  });

  it("refuses an address another account took meanwhile: nothing changes and the link is used up", async () => {
    const subject = await emailChangeApp();
    const { email, bearer } = await subject.signUp();
    const token = await subject.requestChange(bearer, "wanted@example.com");
    await subject.signUp("wanted@example.com");
    const refused = await subject.call("/api/auth/email/confirm", { token });
    expect(await refusal(refused, 422)).toEqual({
      code: "validation_failed",
      message: "Validation failed",
      status: 422,
      fields: { email: ["has already been taken"] },
    });
    expect(await subject.emails()).toEqual([email, "wanted@example.com"]);
    expect(subject.emailChanges).toEqual([]);
    const again = await subject.call("/api/auth/email/confirm", { token });
    expect((await refusal(again, 422)).fields).toEqual({ token: ["is invalid"] });
  });

  it("honours only the newest request: an older link no longer works", async () => {
    const subject = await emailChangeApp();
    const { email, bearer } = await subject.signUp();
    const ask = (address: string) =>
      subject.call("/api/auth/email", { email: address, current_password: PASSWORD }, bearer);
    await ask("first@example.com");
    const first = subject.linkTokenTo("first@example.com");
    await ask("second@example.com");
    const second = subject.linkTokenTo("second@example.com");
    expect((await pendingRows(subject)).map((row) => row.new_email)).toEqual([
      "second@example.com",
    ]);
    const old = await subject.call("/api/auth/email/confirm", { token: first });
    expect((await refusal(old, 422)).fields).toEqual({ token: ["is invalid"] });
    const newest = await subject.call("/api/auth/email/confirm", { token: second });
    expect(newest.status).toBe(200);
    expect(subject.emailChanges).toEqual([["second@example.com", email]]);
  });

  it("changes the address once when two confirmations of one link race", async () => {
    const subject = await emailChangeApp();
    const { email, bearer } = await subject.signUp();
    const token = await subject.requestChange(bearer, "ada@new.example");
    const answers = await Promise.all([
      subject.call("/api/auth/email/confirm", { token }, undefined, { from: "198.51.100.1" }),
      subject.call("/api/auth/email/confirm", { token }, undefined, { from: "198.51.100.2" }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
    expect(subject.emailChanges).toEqual([["ada@new.example", email]]);
    expect(await subject.emails()).toEqual(["ada@new.example"]);
  });

  it("is limited per client", async () => {
    const subject = await emailChangeApp();
    for (let index = 0; index < 10; index++) {
      const answer = await subject.call("/api/auth/email/confirm", { token: "A".repeat(43) });
      expect(answer.status).toBe(422);
    }
    const over = await subject.call("/api/auth/email/confirm", { token: "A".repeat(43) });
    expect(over.status).toBe(429);
  });
});

describe("the email change routes and mail", () => {
  it("are not mounted without a mailer", async () => {
    const subject = await emailChangeApp({ mail: "none" });
    const { bearer } = await subject.signUp();
    const body = { email: "ada@new.example", current_password: PASSWORD };
    await expect(subject.call("/api/auth/email", body, bearer)).rejects.toThrow("no route");
    await expect(subject.call("/api/auth/email/confirm", { token: "x" })).rejects.toThrow(
      "no route",
    );
    const page = subject.browser();
    await expect(page.get("/account/email")).rejects.toThrow("no route");
    await expect(page.get(`/email_changes/${"A".repeat(43)}`)).rejects.toThrow("no route");
  });

  it("answer 500 naming the setting with a missing mailer, and store nothing", async () => {
    const subject = await emailChangeApp({ mail: "missing" });
    const { bearer } = await subject.signUp();
    const body = { email: "ada@new.example", current_password: PASSWORD };
    const answer = await subject.call("/api/auth/email", body, bearer);
    expect(await refusal(answer, 500)).toMatchObject({ message: noMailerMessage("MAIL_ADAPTER") });
    const page = subject.browser();
    await page.form("/signup", { email: "grace@example.com", password: PASSWORD });
    const form = await page.form("/account/email", {
      email: "grace@new.example",
      current_password: PASSWORD,
    });
    expect(form.status).toBe(500);
    expect(await form.text()).toBe(noMailerMessage("MAIL_ADAPTER"));
    expect(await pendingRows(subject)).toEqual([]);
  });
});
