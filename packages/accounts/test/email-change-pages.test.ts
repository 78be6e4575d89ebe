import { describe, expect, it } from "vitest";
import { RECENT_SIGN_IN_MS } from "../src/index.js";
import { emailChangeApp, PASSWORD } from "./email-change-app.js";
import { twoFactorApp, withTotpAndPasskey } from "./two-factor-app.js";

const DAY = 24 * 3_600_000;

/** An app, and a browser signed up (so signed in, just now) as `email` with {@link PASSWORD}. */
async function signedInBrowser(email = "ada@example.com") {
  const subject = await emailChangeApp();
  const page = subject.browser();
  expect((await page.form("/signup", { email, password: PASSWORD })).status).toBe(303);
  return { subject, page, email };
}

describe("GET and POST /account/email", () => {
  it("sends a stranger to sign in", async () => {
    const subject = await emailChangeApp();
    const page = subject.browser();
    const answer = await page.get("/account/email");
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/login");
    const posted = await page.form("/account/email", { email: "x@example.com" });
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe("/login");
  });

  it("shows the form, then mails the link and the notice, and says so on the account page", async () => {
    const { subject, page, email } = await signedInBrowser();
    const form = await page.get("/account/email");
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain("<h1>Change your email address</h1>");
    expect(html).toContain(`<dd>${email}</dd>`);
    expect(html).toContain('name="email" type="email" autocomplete="email"');
    expect(html).toContain('name="current_password" type="password"');

    const sent = await page.form("/account/email", {
      email: "Ada@New.Example",
      current_password: PASSWORD,
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe("/account");
    expect(await page.follow(sent)).toContain("Check your new address for a confirmation link.");
    expect(subject.mailer.last("ada@new.example")?.subject).toBe("Confirm your new email address");
    expect(subject.mailer.last(email)?.subject).toBe("Your email address is being changed");
    expect(await subject.emails()).toEqual([email]);
  });

  it("answers 422 with every field's message, keeping what was typed", async () => {
    const { subject, page } = await signedInBrowser();
    await subject.signUp("taken@example.com");
    const invalid = await page.form("/account/email", {
      email: "not <an> address",
      current_password: "wrong",
    });
    expect(invalid.status).toBe(422);
    const html = await invalid.text();
    expect(html).toContain("Email is invalid");
    expect(html).toContain('value="not &lt;an&gt; address"');
    expect(html).toContain("Current password is incorrect");
    expect(html).toContain('id="field-current_password" name="current_password"');
    const taken = await page.form("/account/email", {
      email: "taken@example.com",
      current_password: PASSWORD,
    });
    expect(taken.status).toBe(422);
    expect(await taken.text()).toContain("Email has already been taken");
    const own = await page.form("/account/email", {
      email: "ADA@example.com",
      current_password: PASSWORD,
    });
    expect(own.status).toBe(422);
    expect(await own.text()).toContain("Email has already been taken");
    expect(await subject.database.all("SELECT user_id FROM email_changes")).toEqual([]);
  });

  it("answers 403 once the sign-in of a user with a second factor is older than 10 minutes", async () => {
    const subject = await twoFactorApp();
    const user = await withTotpAndPasskey(subject);
    const page = subject.browser();
    await page.form("/login", { email: user.email, password: PASSWORD });
    expect(
      (await page.form("/login/second_factor", { code: subject.nextCode(user.key) })).status,
    ).toBe(303);
    const body = { email: "ada@new.example", current_password: PASSWORD };
    subject.clock.now += RECENT_SIGN_IN_MS + 1000;
    const refused = await page.form("/account/email", body);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("This needs a recent sign-in");
    expect(await subject.database.all("SELECT user_id FROM email_changes")).toEqual([]);
  });

  it("asks a user without a password for no password, only a recent sign-in", async () => {
    const subject = await emailChangeApp();
    const email = "grace@example.com";
    const now = subject.clock.now;
    await subject.stores.users.create({ email, passwordDigest: "", confirmedAt: now }, now);
    const page = subject.browser();
    await page.form("/magic_link", { email });
    const link = /\/magic_link\/([A-Za-z0-9_-]{43})/.exec(subject.mailer.last(email)!.text)![1];
    expect((await page.form(`/magic_link/${link}`)).status).toBe(303);
    expect(await (await page.get("/account/email")).text()).not.toContain("current_password");
    const asked = await page.form("/account/email", { email: "grace@new.example" });
    expect(asked.status).toBe(303);
    subject.clock.now += RECENT_SIGN_IN_MS + 1000;
    const stale = await page.form("/account/email", { email: "grace@other.example" });
    expect(stale.status).toBe(403);
  });

  it("refuses a post from another site", async () => {
    const { subject, page } = await signedInBrowser();
    const fields = { email: "ada@new.example", current_password: PASSWORD };
    const answer = await page.form("/account/email", fields, "https://evil.example");
    expect(answer.status).toBe(403);
    expect(subject.mailer.last("ada@new.example")).toBeUndefined();
    expect(await subject.database.all("SELECT user_id FROM email_changes")).toEqual([]);
  });
});

describe("GET and POST /email_changes/:token", () => {
  /** A signed-in user asked to move to `ada@new.example`: the mailed token. */
  async function asked() {
    const setup = await signedInBrowser();
    await setup.page.form("/account/email", {
      email: "ada@new.example",
      current_password: PASSWORD,
    });
    return { ...setup, token: setup.subject.linkTokenTo("ada@new.example") };
  }

  it("shows a Confirm button naming the new address in any browser, then changes the address once", async () => {
    const { subject, email, token } = await asked();
    const elsewhere = subject.browser();
    const shown = await elsewhere.get(`/email_changes/${token}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await shown.text();
    expect(html).toContain("Make ada@new.example the address of your account?");
    expect(html).toContain(`<form method="post" action="/email_changes/${token}"`);
    expect(html).toContain(">Confirm</button>");
    // Showing it used nothing up.
    expect(await subject.database.all("SELECT user_id FROM email_changes")).toHaveLength(1);
    expect(await subject.emails()).toEqual([email]);

    const confirmed = await elsewhere.form(`/email_changes/${token}`);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe("/account");
    expect(await elsewhere.follow(confirmed)).toContain("Your email address has been changed.");
    expect(await subject.emails()).toEqual(["ada@new.example"]);
    expect(subject.emailChanges).toEqual([["ada@new.example", email]]);

    const again = await elsewhere.form(`/email_changes/${token}`);
    expect(await elsewhere.follow(again)).toContain(
      "That email change link is invalid or has expired.",
    );
    const reopened = await elsewhere.get(`/email_changes/${token}`);
    expect(reopened.status).toBe(303);
    expect(await elsewhere.follow(reopened)).toContain(
      "That email change link is invalid or has expired.",
    );
    expect(subject.emailChanges).toHaveLength(1);
  });

  it("refuses an expired link, on the page and on its button", async () => {
    const { subject, page, email, token } = await asked();
    subject.clock.now += DAY;
    const shown = await page.get(`/email_changes/${token}`);
    expect(shown.headers.get("location")).toBe("/account");
    expect(await page.follow(shown)).toContain("That email change link is invalid or has expired.");
    const posted = await page.form(`/email_changes/${token}`);
    expect(await page.follow(posted)).toContain(
      "That email change link is invalid or has expired.",
    );
    expect(await subject.emails()).toEqual([email]);
  });

  it("tells of an address taken meanwhile, and changes nothing", async () => {
    const { subject, page, email, token } = await asked();
    await subject.signUp("ada@new.example");
    const posted = await page.form(`/email_changes/${token}`);
    expect(posted.headers.get("location")).toBe("/account");
    expect(await page.follow(posted)).toContain(
      "Another account has taken that email address meanwhile.",
    );
    expect(await subject.emails()).toEqual([email, "ada@new.example"]);
    expect(subject.emailChanges).toEqual([]);
  });

  it("changes the address once when two browsers confirm one link at the same time", async () => {
    const { subject, token } = await asked();
    const [first, second] = [subject.browser(), subject.browser()];
    const answers = await Promise.all([
      first.form(`/email_changes/${token}`),
      second.form(`/email_changes/${token}`),
    ]);
    const pages = [await first.follow(answers[0]!), await second.follow(answers[1]!)];
    const changed = pages.filter((html) => html.includes("Your email address has been changed."));
    const refused = pages.filter((html) => html.includes("That email change link is invalid"));
    expect([changed.length, refused.length]).toEqual([1, 1]);
    expect(subject.emailChanges).toHaveLength(1);
    expect(await subject.emails()).toEqual(["ada@new.example"]);
  });

  it("refuses a post from another site, leaving the link pending", async () => {
    const { subject, page, token } = await asked();
    const answer = await page.form(`/email_changes/${token}`, {}, "https://evil.example");
    expect(answer.status).toBe(403);
    expect(await subject.database.all("SELECT user_id FROM email_changes")).toHaveLength(1);
    expect(subject.emailChanges).toEqual([]);
  });
});
