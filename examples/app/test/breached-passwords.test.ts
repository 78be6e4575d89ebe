import { MemoryMailer } from "@tessera/mail";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type PwnedPasswordsDouble,
  sha1Upper,
  startPwnedPasswordsDouble,
} from "../../../test/support/pwned-passwords-double.js";
import { Browser, linkIn, pageText } from "./support/browser.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

// The example app with PWNED_PASSWORDS=1 against a Have I Been Pwned double on 127.0.0.1,
// reached through the app's guarded fetch (OUTBOUND_ALLOW_HOSTS names 127.0.0.1, as the
// webhook tests do).

const BREACHED = "correct horse battery staple";
const SECOND_BREACHED = "letmein letmein letmein";
const CLEAN = "an unknown passphrase of mine";
const ANOTHER_CLEAN = "yet another unknown passphrase";
const MESSAGE = "has appeared in a data breach; choose another";

const mailer = new MemoryMailer();
let double: PwnedPasswordsDouble;
let server: TestServer;

beforeAll(async () => {
  double = await startPwnedPasswordsDouble();
  double.breach(BREACHED, 3_861);
  double.breach(SECOND_BREACHED, 12);
  server = await startTestServer(
    {
      TRUST_PROXY: "1",
      APP_URL: "https://app.example",
      PWNED_PASSWORDS: "1",
      PWNED_PASSWORDS_URL: double.url,
      // Room for a loaded machine: a check that timed out would let a breached password pass.
      PWNED_PASSWORDS_TIMEOUT_MS: "2000",
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
    },
    { mailer },
  );
});
afterAll(async () => {
  await server.stop();
  await double.close();
});
afterEach(() => {
  double.mode = "ranges";
});

let counter = 0;
const uniqueEmail = () => `pwned${++counter}.${Date.now()}@example.com`;

/** `POST /api/auth/signup` from a client of its own, in `language` when given. */
async function jsonSignUp(email: string, password: string, language?: string) {
  const response = await fetch(`${server.url}/api/auth/signup`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-forwarded-for": newClientAddress(),
      ...(language ? { "accept-language": language } : {}),
    },
    body: JSON.stringify({ email, password }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function usersWith(email: string) {
  return server.query<{ id: number }>("SELECT id FROM users WHERE email = ?", email);
}

describe("JSON sign-up", () => {
  it("refuses a breached password with 422 on password, having sent only the hash's prefix", async () => {
    const email = uniqueEmail();
    const before = double.requests.length;
    const refused = await jsonSignUp(email, BREACHED);
    expect(refused).toEqual({
      status: 422,
      body: {
        error: {
          code: "validation_failed",
          message: "Validation failed",
          status: 422,
          fields: { password: [MESSAGE] },
        },
      },
    });
    expect(await usersWith(email)).toEqual([]);
    const seen = double.requests.slice(before);
    const hash = sha1Upper(BREACHED);
    expect(seen.map((request) => [request.method, request.path])).toEqual([
      ["GET", `/range/${hash.slice(0, 5)}`],
    ]);
    expect(seen[0]?.headers["add-padding"]).toBe("true");
    expect(JSON.stringify(seen).toUpperCase()).not.toContain(hash.slice(5));
  });

  it("writes the message in the request's language", async () => {
    const refused = await jsonSignUp(uniqueEmail(), BREACHED, "fr-FR,fr;q=0.9");
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      fields: { password: ["figure dans une fuite de données ; choisissez-en un autre"] },
    });
  });

  it("creates the user with a clean password (201)", async () => {
    const email = uniqueEmail();
    const created = await jsonSignUp(email, CLEAN);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email });
    expect(await usersWith(email)).toHaveLength(1);
  });

  it("refuses a short password by the length policy without asking the service", async () => {
    const before = double.requests.length;
    const refused = await jsonSignUp(uniqueEmail(), "short");
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      fields: { password: ["is too short (minimum is 8 characters)"] },
    });
    expect(double.requests.length).toBe(before);
  });

  it("lets a breached password through when the service does not answer in time", async () => {
    double.mode = "stall";
    const email = uniqueEmail();
    const created = await jsonSignUp(email, BREACHED);
    expect(created.status).toBe(201);
    expect(await usersWith(email)).toHaveLength(1);
  });

  it("lets a breached password through when the service answers 500", async () => {
    double.mode = "error";
    expect((await jsonSignUp(uniqueEmail(), BREACHED)).status).toBe(201);
  });
});

describe("HTML change of password", () => {
  it("refuses a breached new password (422 with the message), then takes a clean one", async () => {
    const browser = new Browser(server.url);
    expect((await browser.post("/signup", { email: uniqueEmail(), password: CLEAN })).status).toBe(
      303,
    );
    const refused = await browser.post("/account/password", {
      current_password: CLEAN,
      password: BREACHED,
      password_confirmation: BREACHED,
      sign_out_others: "1",
    });
    expect(refused.status).toBe(422);
    expect(pageText(refused.html)).toContain(`Password ${MESSAGE}`);

    const changed = await browser.post("/account/password", {
      current_password: CLEAN,
      password: ANOTHER_CLEAN,
      password_confirmation: ANOTHER_CLEAN,
      sign_out_others: "1",
    });
    expect(changed.status).toBe(303);
    expect(changed.location).toBe("/account");
  });

  it("lets a breached new password through when the service does not answer in time", async () => {
    const browser = new Browser(server.url);
    await browser.post("/signup", { email: uniqueEmail(), password: CLEAN });
    double.mode = "stall";
    const changed = await browser.post("/account/password", {
      current_password: CLEAN,
      password: SECOND_BREACHED,
      password_confirmation: SECOND_BREACHED,
      sign_out_others: "1",
    });
    expect(changed.status).toBe(303);
    expect(changed.location).toBe("/account");
  });
});

describe("HTML password reset", () => {
  async function resetLink(email: string) {
    await new Browser(server.url).post("/passwords", { email });
    await server.deliverMail();
    const mail = mailer.last(email);
    if (!mail) throw new Error(`no mail to ${email}`);
    return linkIn(mail.text, "/passwords");
  }

  it("refuses a breached password keeping the token, then resets with a clean one", async () => {
    const email = uniqueEmail();
    await new Browser(server.url).post("/signup", { email, password: CLEAN });
    const link = await resetLink(email);
    const browser = new Browser(server.url);
    const refused = await browser.post(link.path, {
      password: BREACHED,
      password_confirmation: BREACHED,
    });
    expect(refused.status).toBe(422);
    expect(pageText(refused.html)).toContain(`Password ${MESSAGE}`);

    const done = await browser.post(link.path, {
      password: ANOTHER_CLEAN,
      password_confirmation: ANOTHER_CLEAN,
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe("/login");
    const signedIn = await new Browser(server.url).post("/login", {
      email,
      password: ANOTHER_CLEAN,
    });
    expect(signedIn.status).toBe(303);
  });

  it("lets a breached password through when the service does not answer in time", async () => {
    const email = uniqueEmail();
    await new Browser(server.url).post("/signup", { email, password: CLEAN });
    const link = await resetLink(email);
    double.mode = "stall";
    const done = await new Browser(server.url).post(link.path, {
      password: SECOND_BREACHED,
      password_confirmation: SECOND_BREACHED,
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe("/login");
  });
});
