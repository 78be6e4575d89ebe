// Per-account throttling in the app, over real HTTP on the suite's engine (SQLite, and
// PostgreSQL in the example-app-postgres project): wrong passwords for one account from as many
// client addresses as an attacker has make the account's password sign-ins wait, over JSON and
// HTML alike, for a known and an unknown address alike, while every other way in still works.
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, linkIn, pageText } from "./support/browser.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

const mailer = new MemoryMailer();
let now = Date.UTC(2026, 11, 3, 9, 0, 0);
let server: TestServer;
const PASSWORD = "correct horse battery";
const NOTICE = "Someone is trying to sign in to your account";
const THROTTLED =
  "Too many failed attempts to sign in to this account; wait a while, or sign in another way.";

beforeAll(async () => {
  server = await startTestServer(
    { TRUST_PROXY: "1", APP_URL: "https://app.example" },
    { mailer, clock: () => now },
  );
});
afterAll(() => server.stop());

let counter = 0;
const uniqueEmail = () => `throttle${++counter}.${Date.now()}@example.com`;

/** `POST /api/auth/token` from a client address of its own: status, body and `Retry-After`. */
async function tokenFromAfar(email: string, password: string) {
  const response = await fetch(`${server.url}/api/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": newClientAddress() },
    body: JSON.stringify({ email, password }),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: (await response.json()) as { token?: string; error?: { code: string; message: string } },
  };
}

async function signUp(email = uniqueEmail()) {
  const response = await new Browser(server.url).post("/signup", { email, password: PASSWORD });
  expect(response.status).toBe(303);
  return email;
}

/** `count` wrong passwords for `email`, each from a new address: every one must be a 401. */
async function wrongPasswords(email: string, count: number) {
  for (let attempt = 0; attempt < count; attempt += 1) {
    const answer = await tokenFromAfar(email, `wrong password ${attempt}`);
    expect(answer.status, `attempt ${attempt + 1}`).toBe(401);
  }
}

async function noticesTo(email: string) {
  await server.deliverMail();
  return mailer.sent.filter((mail) => mail.to === email && mail.subject === NOTICE);
}

describe("ten wrong passwords for one account from ten addresses", () => {
  it("make the eleventh wait, even with the right password, while others and links still work", async () => {
    const ada = await signUp();
    const bob = await signUp();
    await wrongPasswords(ada, 10);

    const refused = await tokenFromAfar(ada, PASSWORD);
    expect(refused).toEqual({
      status: 429,
      retryAfter: "60",
      body: { error: { status: 429, code: "account_throttled", message: THROTTLED } },
    });
    // The refusal is in the account's trail, as a failed sign-in that was not judged.
    const [user] = await server.query<{ id: number }>("SELECT id FROM users WHERE email = ?", ada);
    const trail = await server.query<{ type: string; details: string }>(
      "SELECT type, details FROM audit_events WHERE user_id = ? ORDER BY id",
      user!.id,
    );
    expect(trail.slice(-3).map(({ type, details }) => [type, JSON.parse(details)])).toEqual([
      ["user.sign_in_failed", { method: "password", reason: "wrong_password" }],
      ["user.throttled", {}],
      ["user.sign_in_failed", { method: "password", reason: "throttled" }],
    ]);
    // The HTML login counts the same account: its page says why, with the wait.
    const page = await new Browser(server.url).post("/login", { email: ada, password: PASSWORD });
    expect(page.status).toBe(429);
    expect(page.headers.get("retry-after")).toBe("60");
    expect(pageText(page.html)).toContain(THROTTLED);

    // Another account signs in; the throttled one still gets in by an emailed link.
    expect((await tokenFromAfar(bob, PASSWORD)).status).toBe(200);
    const browser = new Browser(server.url);
    expect((await browser.post("/magic_link", { email: ada })).status).toBe(303);
    await server.deliverMail();
    const link = linkIn(mailer.last(ada)!.text, "/magic_link");
    const used = await browser.post(link.path);
    expect(used.location).toBe("/");
    expect(pageText((await browser.follow(used)).html)).toContain("Signed in.");
    // And a password reset can still be asked for.
    expect((await new Browser(server.url).post("/passwords", { email: ada })).status).toBe(303);
  });

  it("mail the owner once per throttled period, and nobody for an unknown address", async () => {
    const ada = await signUp();
    await wrongPasswords(ada, 10);
    for (let more = 0; more < 3; more += 1) {
      expect((await tokenFromAfar(ada, "still wrong")).status).toBe(429);
    }
    const notices = await noticesTo(ada);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain(ada);
    expect(notices[0]!.text).toContain("https://app.example/passwords/new");
    expect(notices[0]!.text).not.toContain("still wrong");
  });

  it("answer an unknown address exactly as a known one", async () => {
    const nobody = uniqueEmail();
    await wrongPasswords(nobody, 10);
    const refused = await tokenFromAfar(nobody, PASSWORD);
    expect(refused).toEqual({
      status: 429,
      retryAfter: "60",
      body: { error: { status: 429, code: "account_throttled", message: THROTTLED } },
    });
    expect(await noticesTo(nobody)).toEqual([]);
    // The store keeps the address's keyed digest, never the address.
    const keys = await server.query<{ key: string }>("SELECT key FROM failure_streaks");
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.some(({ key }) => key.includes("@") || key.includes(nobody))).toBe(false);
  });
});

describe("the waits", () => {
  it("double after each wrong password that follows one, up to an hour", async () => {
    const ada = await signUp();
    await wrongPasswords(ada, 10);
    const waits: string[] = [];
    for (let round = 0; round < 8; round += 1) {
      const refused = await tokenFromAfar(ada, "wrong again");
      expect(refused.status).toBe(429);
      waits.push(refused.retryAfter!);
      now += Number(refused.retryAfter) * 1000;
      expect((await tokenFromAfar(ada, "wrong again")).status).toBe(401);
    }
    expect(waits).toEqual(["60", "120", "240", "480", "960", "1920", "3600", "3600"]);
    // Once the wait is over the right password signs in, and the count starts again.
    now += 3600 * 1000;
    expect((await tokenFromAfar(ada, PASSWORD)).status).toBe(200);
    await wrongPasswords(ada, 10);
  });

  it("start again after a right password: nine wrong, one right, ten wrong are all judged", async () => {
    const ada = await signUp();
    await wrongPasswords(ada, 9);
    expect((await tokenFromAfar(ada, PASSWORD)).status).toBe(200);
    await wrongPasswords(ada, 10);
    expect((await tokenFromAfar(ada, PASSWORD)).status).toBe(429);
  });
});
