import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import {
  accountMigrations,
  sqlAccountStores,
  sqlTokenMailTransaction,
} from "@tessera/accounts/sql";
import { routeRequests } from "@tessera/http";
import { type Mailer, MemoryMailer } from "@tessera/mail";
import { outboxMailer } from "@tessera/mail/outbox";
import { outboxMigrations, SqlOutbox } from "@tessera/outbox/sql";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import {
  type AccountRoutesOptions,
  accountRoutes,
  EMAIL_CODE_LIFETIME_MS,
  missingMailer,
  totpCode,
} from "../src/index.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-email-codes-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const PASSWORD = "correct horse battery staple";
const ORIGIN = "https://app.example";
const UNAUTHORIZED = {
  error: { code: "invalid_credentials", message: "Unauthorized", status: 401 },
};

/** `accountRoutes` on a SQLite file, its mails kept in memory, on the test's clock. */
async function app(options: { mailer?: AccountRoutesOptions["mailer"] | null } = {}) {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, [...accountMigrations, ...outboxMigrations]);
  const mailer = new MemoryMailer();
  const clock = { now: Date.UTC(2026, 10, 27, 9, 0, 10) };
  const given = options.mailer === undefined ? mailer : options.mailer;
  const accounts = accountRoutes({
    ...sqlAccountStores(database),
    ...(given === null ? {} : { mailer: given }),
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    appUrl: ORIGIN,
    passwords: { iterations: 1000 },
    clock: () => clock.now,
  });
  const handle = routeRequests(accounts.routes);
  let clients = 0;
  const call = async (
    path: string,
    body: unknown,
    init: { client?: string; bearer?: string } = {},
  ) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
    const request = new Request(`${ORIGIN}${path}`, {
      method: init.bearer && body === undefined ? "GET" : "POST",
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const clientAddress = init.client ?? `198.51.100.${++clients}`;
    const response = await handle(request, { clientAddress });
    if (!response) return new Response(null, { status: 404 });
    return response;
  };
  const signUp = async () => {
    const email = `ada-${crypto.randomUUID()}@example.com`;
    expect((await call("/api/auth/signup", { email, password: PASSWORD })).status).toBe(201);
    return email;
  };
  /** Asks for a code for `email` and reads it from the mail (undefined when none was sent). */
  const requestCode = async (email: string) => {
    const before = mailer.sent.length;
    const answer = await call("/api/auth/email_code", { email });
    expect(answer.status).toBe(202);
    const mail = mailer.sent.slice(before).find((sent) => sent.to === email);
    return { answer, code: mail && /^(\d{6})$/m.exec(mail.text)?.[1], mail };
  };
  return { database, mailer, clock, call, signUp, requestCode };
}

describe("POST /api/auth/email_code", () => {
  it("answers 202 alike for every address, and mails a six-digit code only to an account", async () => {
    const { signUp, requestCode, mailer } = await app();
    const email = await signUp();
    const known = await requestCode(email);
    const unknown = await requestCode("nobody@example.com");
    const body = {
      message: "If an account uses that address, a sign-in code is on its way.",
    };
    expect(await known.answer.json()).toEqual(body);
    expect(await unknown.answer.json()).toEqual(body);
    expect(unknown.mail).toBeUndefined();
    expect(mailer.sent.map((mail) => mail.to)).toEqual([email]);
    expect(known.mail).toMatchObject({ subject: "Your sign-in code" });
    expect(known.code).toMatch(/^\d{6}$/);
    expect(known.mail!.text).toContain("The code is valid for 10 minutes and works once.");
    expect(known.mail!.html).toContain(`<strong>${known.code}</strong>`);
  });

  it("refuses a body without an address, and is not mounted without a mailer", async () => {
    const { call } = await app();
    const missing = await call("/api/auth/email_code", {});
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.message).toContain("missing field `email`");
    const wrongType = await call("/api/auth/email_code", { email: 42 });
    expect(wrongType.status).toBe(400);
    expect(
      (await (await app({ mailer: null })).call("/api/auth/email_code", { email: "a@b.c" })).status,
    ).toBe(404);
    const misconfigured = await app({ mailer: missingMailer("MAIL_ADAPTER") });
    const answer = await misconfigured.call("/api/auth/email_code", { email: "a@b.c" });
    expect(answer.status).toBe(500);
    expect((await answer.json()).error.message).toContain("MAIL_ADAPTER");
  });

  it("limits requests per address, whatever the client: the 11th in a minute is a 429", async () => {
    const { signUp, call } = await app();
    const email = await signUp();
    for (let n = 0; n < 10; n++) {
      expect((await call("/api/auth/email_code", { email })).status).toBe(202);
    }
    const refused = await call("/api/auth/email_code", { email });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("POST /api/auth/token/email_code", () => {
  it("grants the token body for the mailed code, once", async () => {
    const { signUp, requestCode, call } = await app();
    const email = await signUp();
    const { code } = await requestCode(email);
    const granted = await call("/api/auth/token/email_code", { email, code });
    expect(granted.status).toBe(200);
    const body = (await granted.json()) as {
      token: string;
      token_type: string;
      expires_in: number;
    };
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    const me = await call("/api/auth/me", undefined, { bearer: body.token });
    expect(((await me.json()) as { email: string }).email).toBe(email);
    const again = await call("/api/auth/token/email_code", { email, code });
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual(UNAUTHORIZED);
  });

  it("refuses a wrong code, another account's code, a replaced code and an expired one", async () => {
    const { signUp, requestCode, call, clock } = await app();
    const [ada, bob] = [await signUp(), await signUp()];
    const first = await requestCode(ada);
    const bobs = await requestCode(bob);
    const wrong = first.code === "000000" ? "000001" : "000000";
    expect((await call("/api/auth/token/email_code", { email: ada, code: wrong })).status).toBe(
      401,
    );
    if (bobs.code !== first.code) {
      const crossed = await call("/api/auth/token/email_code", { email: ada, code: bobs.code });
      expect(crossed.status).toBe(401);
    }
    const second = await requestCode(ada);
    if (second.code !== first.code) {
      const replaced = await call("/api/auth/token/email_code", { email: ada, code: first.code });
      expect(replaced.status).toBe(401);
    }
    clock.now += EMAIL_CODE_LIFETIME_MS;
    const expired = await call("/api/auth/token/email_code", { email: ada, code: second.code });
    expect(expired.status).toBe(401);
    expect(
      (await call("/api/auth/token/email_code", { email: "nobody@example.com", code: "123456" }))
        .status,
    ).toBe(401);
  });

  it("voids a code after five wrong ones: the right one then fails too", async () => {
    const { signUp, requestCode, call } = await app();
    const email = await signUp();
    const { code } = await requestCode(email);
    const wrong = code === "999999" ? "999998" : "999999";
    for (let n = 0; n < 5; n++) {
      expect((await call("/api/auth/token/email_code", { email, code: wrong })).status).toBe(401);
    }
    expect((await call("/api/auth/token/email_code", { email, code })).status).toBe(401);
    const fresh = await requestCode(email);
    expect((await call("/api/auth/token/email_code", { email, code: fresh.code })).status).toBe(
      200,
    );
  });

  it("gives one token to two requests racing with the right code", async () => {
    const { signUp, requestCode, call } = await app();
    const email = await signUp();
    const { code } = await requestCode(email);
    const answers = await Promise.all(
      [1, 2, 3].map(() => call("/api/auth/token/email_code", { email, code })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401]);
  });

  it("asks a user with a second factor for it, as after a password", async () => {
    const { signUp, requestCode, call, clock } = await app();
    const email = await signUp();
    const token = await call("/api/auth/token", { email, password: PASSWORD });
    const { token: bearer } = (await token.json()) as { token: string };
    const setup = await call("/api/auth/mfa/totp", { password: PASSWORD }, { bearer });
    const { secret } = (await setup.json()) as { secret: string };
    const key = decodeBase32IgnorePadding(secret);
    const confirmed = await call(
      "/api/auth/mfa/totp/confirm",
      { code: totpCode(key, clock.now) },
      { bearer },
    );
    expect(confirmed.status).toBe(200);
    const { code } = await requestCode(email);
    const refused = await call("/api/auth/token/email_code", { email, code });
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as {
      error: { code: string };
      mfa_token: string;
      methods: string[];
    };
    expect(body.error.code).toBe("mfa_required");
    expect(body.methods).toEqual(["totp", "backup_code"]);
    expect(body).not.toHaveProperty("token");
    clock.now += 30_000;
    const completed = await call("/api/auth/token/mfa", {
      mfa_token: body.mfa_token,
      code: totpCode(key, clock.now),
    });
    expect(completed.status).toBe(200);
  });

  it("limits attempts per address, whatever the client", async () => {
    const { signUp, call } = await app();
    const email = await signUp();
    for (let n = 0; n < 10; n++) {
      expect((await call("/api/auth/token/email_code", { email, code: "123456" })).status).toBe(
        401,
      );
    }
    expect((await call("/api/auth/token/email_code", { email, code: "123456" })).status).toBe(429);
  });
});

describe("an emailed code and its mail in one transaction", () => {
  it("keeps no code when its mail cannot be stored", async () => {
    const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
    await applyMigrations(database, [...accountMigrations, ...outboxMigrations]);
    const outbox = new SqlOutbox(database);
    const stores = sqlAccountStores(database);
    const mailer: Mailer = outboxMailer({ outbox, writer: database });
    const accounts = accountRoutes({
      ...stores,
      mailer,
      tokenMailTransaction: sqlTokenMailTransaction(database, (writer) =>
        outboxMailer({ outbox, writer }),
      ),
      secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
      passwords: { iterations: 1000 },
    });
    const handle = routeRequests(accounts.routes);
    const created = await stores.users.create({ email: "ada@example.com", passwordDigest: "" }, 0);
    expect(created.ok).toBe(true);
    const ask = () =>
      handle(
        new Request(`${ORIGIN}/api/auth/email_code`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "ada@example.com" }),
        }),
        { clientAddress: "203.0.113.7" },
      );
    const codes = () => database.all("SELECT user_id FROM email_codes");
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (line: unknown) => errors.push(line);
    try {
      await database.run(
        "CREATE TRIGGER refuse_mail BEFORE INSERT ON outbox_items BEGIN SELECT RAISE(ABORT, 'the outbox is full'); END",
      );
      expect((await ask())?.status).toBe(202);
      expect(await codes()).toEqual([]);
      expect(errors).toEqual(["Could not send the email_code mail: the outbox is full"]);
      await database.run("DROP TRIGGER refuse_mail");
      expect((await ask())?.status).toBe(202);
      expect(await codes()).toHaveLength(1);
      expect(await outbox.list("mail", { limit: 5 })).toHaveLength(1);
    } finally {
      console.error = original;
    }
  });
});
