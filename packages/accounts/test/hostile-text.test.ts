// Text no database stores alike, sent to every account route: a NUL (`\u0000`), which
// PostgreSQL refuses as a text parameter and SQLite keeps, and a lone surrogate. The stores
// run on SQLite wrapped to refuse a NUL parameter as PostgreSQL does, so a NUL that reached a
// statement would be a 500 here too.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { routeRequests } from "@tessera/http";
import { MemoryMailer } from "@tessera/mail";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { nulRefusingDatabase } from "../../../test/support/nul-refusing-database.js";
import { accountRoutes, nameColumn } from "../src/index.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-account-text-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const ORIGIN = "https://app.example";
const PASSWORD = "correct horse battery staple";
const NUL = "\u0000";
const PREFIX = "Failed to deserialize the JSON body into the target type: ";

async function mounted() {
  const file = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(file, [
    ...accountMigrations,
    { id: "0100_users_name", sql: "ALTER TABLE users ADD COLUMN name TEXT" },
  ]);
  const database = nulRefusingDatabase(file);
  const mailer = new MemoryMailer();
  const accounts = accountRoutes({
    ...sqlAccountStores(database, ["name"]),
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    mailer,
    appUrl: ORIGIN,
    passwords: { iterations: 1000 },
    operatorColumns: [nameColumn],
  });
  const handle = routeRequests(accounts.routes);
  const send = async (request: Request) => {
    const response = await handle(request, { clientAddress: "203.0.113.9" });
    if (!response) throw new Error(`no route for ${request.method} ${request.url}`);
    return response;
  };
  const json = async (path: string, method: string, body: unknown, token?: string) => {
    const response = await send(
      new Request(`${ORIGIN}${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      }),
    );
    return {
      status: response.status,
      body: response.status === 204 ? null : await response.json(),
    };
  };
  const form = (path: string, fields: Record<string, string>) =>
    send(
      new Request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: ORIGIN,
          host: "app.example",
        },
        body: new URLSearchParams(fields),
      }),
    );
  const count = async (table: string) =>
    (await file.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n;
  const email = `ada-${crypto.randomUUID()}@example.com`;
  expect((await json("/api/auth/signup", "POST", { email, password: PASSWORD })).status).toBe(201);
  const { token } = (await json("/api/auth/token", "POST", { email, password: PASSWORD })).body;
  return { json, form, count, email, token: token as string, mailer, file };
}

const refusal = (name: string, words: string) => ({
  status: 400,
  body: {
    error: {
      code: "bad_request",
      message: `${PREFIX}${name}: invalid value: ${words}`,
      status: 400,
    },
  },
});
const nul = (name: string) => refusal(name, "NUL character in string");

describe("JSON account routes", () => {
  it("refuse a NUL or a lone surrogate in the sign-up email and the operator column with a 400", async () => {
    const { json, count } = await mounted();
    const users = await count("users");
    const email = `grace-${crypto.randomUUID()}@example.com`;
    expect(
      await json("/api/auth/signup", "POST", { email: `${email}${NUL}`, password: PASSWORD }),
    ).toEqual(nul("email"));
    expect(
      await json("/api/auth/signup", "POST", { email: `${email}\ud800`, password: PASSWORD }),
    ).toEqual(refusal("email", "lone surrogate in string"));
    expect(
      await json("/api/auth/signup", "POST", { email, password: PASSWORD, name: `Grace${NUL}` }),
    ).toEqual(nul("name"));
    expect(await count("users")).toBe(users);
    // The column's own rules still answer for other values.
    expect(
      (await json("/api/auth/signup", "POST", { email, password: PASSWORD, name: 7 })).body.error
        .fields,
    ).toEqual({ name: ["must be a string"] });
  });

  it("refuse a NUL in the token route's email with a 400; a NUL in a password is a wrong password", async () => {
    const { json, email } = await mounted();
    expect(
      await json("/api/auth/token", "POST", { email: `${NUL}${email}`, password: PASSWORD }),
    ).toEqual(nul("email"));
    expect(
      (await json("/api/auth/token", "POST", { email, password: `${NUL}${PASSWORD}` })).status,
    ).toBe(401);
  });

  it("take a password holding a NUL: it is only hashed, never stored nor looked up", async () => {
    const { json } = await mounted();
    const credentials = {
      email: `nul-${crypto.randomUUID()}@example.com`,
      password: `a${NUL}b12345`,
    };
    expect((await json("/api/auth/signup", "POST", credentials)).status).toBe(201);
    expect((await json("/api/auth/token", "POST", credentials)).status).toBe(200);
  });

  it("refuse a NUL in an API key's name with a 400, creating no key", async () => {
    const { json, count, token } = await mounted();
    expect(await json("/api/auth/keys", "POST", { name: `ci${NUL}` }, token)).toEqual(nul("name"));
    expect(await count("api_keys")).toBe(0);
  });

  it("answer a NUL confirmation of DELETE /api/auth/me as a wrong password (403)", async () => {
    const { json, count, token } = await mounted();
    const users = await count("users");
    expect((await json("/api/auth/me", "DELETE", { password: NUL }, token)).status).toBe(403);
    expect(await count("users")).toBe(users);
  });
});

describe("HTML account routes", () => {
  it("answer a login email holding a NUL as an unknown email, without a lookup", async () => {
    const { form, email } = await mounted();
    const page = await form("/login", { email: `${email}${NUL}`, password: PASSWORD });
    expect(page.status).toBe(422);
    expect(await page.text()).toContain("Invalid email or password.");
  });

  it("answer a sign-up email holding a NUL with `Email is invalid`", async () => {
    const { form, count } = await mounted();
    const users = await count("users");
    const page = await form("/signup", { email: `a${NUL}@example.com`, password: PASSWORD });
    expect(page.status).toBe(422);
    expect(await page.text()).toContain("Email is invalid");
    expect(await count("users")).toBe(users);
  });

  it.each(["/magic_link", "/passwords"])(
    "answer POST %s with an email holding a NUL as an unknown address: no mail, no counter for it",
    async (path) => {
      const { form, email, mailer, file } = await mounted();
      const sent = mailer.sent.length;
      const answer = await form(path, { email: `${email}${NUL}` });
      expect(answer.status).toBe(303);
      expect(answer.headers.get("location")).toBe("/login");
      expect(mailer.sent.length).toBe(sent);
      expect(
        await file.all("SELECT key FROM rate_limit_counters WHERE key LIKE 'email:%'"),
      ).toEqual([]);
    },
  );
});
