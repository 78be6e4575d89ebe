import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { routeRequests } from "@tessera/http";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { accountRoutes, nameColumn, type OperatorColumn } from "../src/index.js";
import { jsonCaller } from "./json-caller.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-profile-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const ORIGIN = "https://app.example";
const PASSWORD = "correct horse battery staple";
const PREFIX = "Failed to deserialize the JSON body into the target type: ";

/** A column sign-up does not accept: no profile field, whatever the body says. */
const planColumn: OperatorColumn = {
  name: "plan",
  parse: () => ({ ok: true, value: "free" }),
};

async function profileApp() {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, [
    ...accountMigrations,
    { id: "0100_users_name", sql: "ALTER TABLE users ADD COLUMN name TEXT" },
    { id: "0101_users_plan", sql: "ALTER TABLE users ADD COLUMN plan TEXT" },
  ]);
  const accounts = accountRoutes({
    ...sqlAccountStores(database, ["name", "plan"]),
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    passwords: { iterations: 1000 },
    operatorColumns: [nameColumn, planColumn],
  });
  const handle = routeRequests(accounts.routes);
  const call = jsonCaller(handle, ORIGIN, "203.0.113.77");
  const email = `ada-${crypto.randomUUID()}@example.com`;
  expect((await call("POST", "/api/auth/signup", { email, password: PASSWORD })).status).toBe(201);
  const signedIn = await call("POST", "/api/auth/token", { email, password: PASSWORD });
  const { token } = (await signedIn.json()) as { token: string };
  const names = async () =>
    (await database.all<{ name: string | null }>("SELECT name FROM users")).map((row) => row.name);
  /** A browser signed in as the user. */
  const browser = async () => {
    let cookie = "";
    const send = async (path: string, form?: Record<string, string>) => {
      const headers = { origin: ORIGIN, cookie };
      const request = new Request(`${ORIGIN}${path}`, {
        method: form ? "POST" : "GET",
        headers: form
          ? { ...headers, "content-type": "application/x-www-form-urlencoded" }
          : headers,
        ...(form ? { body: new URLSearchParams(form) } : {}),
      });
      const response = (await handle(request, { clientAddress: "203.0.113.78" }))!;
      const set = response.headers.getSetCookie()[0];
      if (set) cookie = set.split(";")[0]!;
      return response;
    };
    expect((await send("/login", { email, password: PASSWORD })).status).toBe(303);
    return send;
  };
  return { call, token, names, browser };
}

describe("PATCH /api/auth/me", () => {
  it("changes the name, trimmed, and answers the user; a key left out keeps its value", async () => {
    const { call, token, names } = await profileApp();
    const answer = await call("PATCH", "/api/auth/me", { name: "  Ada Lovelace " }, token);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ name: "Ada Lovelace", plan: null });
    expect(await names()).toEqual(["Ada Lovelace"]);
    const untouched = await call("PATCH", "/api/auth/me", {}, token);
    expect(untouched.status).toBe(200);
    expect(await untouched.json()).toMatchObject({ name: "Ada Lovelace" });
    expect(await names()).toEqual(["Ada Lovelace"]);
    // Empty is no name.
    expect((await call("PATCH", "/api/auth/me", { name: " " }, token)).status).toBe(200);
    expect(await names()).toEqual([null]);
  });

  it("answers 422 for a name too long or holding a control character, writing nothing", async () => {
    const { call, token, names } = await profileApp();
    await call("PATCH", "/api/auth/me", { name: "Ada" }, token);
    const cases: [unknown, string][] = [
      ["x".repeat(101), "is too long (maximum is 100 characters)"],
      ["Ada\nLovelace", "is invalid"],
      ["Ada\u0085", "is invalid"],
      [5, "must be a string"],
    ];
    for (const [name, message] of cases) {
      const answer = await call("PATCH", "/api/auth/me", { name }, token);
      expect(answer.status, JSON.stringify(name)).toBe(422);
      const body = (await answer.json()) as { error: { fields: unknown } };
      expect(body.error.fields).toEqual({ name: [message] });
    }
    // 100 characters, counted as characters, not UTF-16 units.
    const hundred = "é".repeat(99) + "😀";
    expect((await call("PATCH", "/api/auth/me", { name: hundred }, token)).status).toBe(200);
    expect(await names()).toEqual([hundred]);
  });

  it("answers 400 for a key that is no profile field, a secretless column sign-up refuses included", async () => {
    const { call, token, names } = await profileApp();
    for (const [body, message] of [
      [{ email: "eve@example.com" }, "unknown field `email`, expected `name`"],
      [{ name: "Ada", plan: "pro" }, "unknown field `plan`, expected `name`"],
      [{ name: "Ada\u0000" }, "name: invalid value: NUL character in string"],
    ] as const) {
      const answer = await call("PATCH", "/api/auth/me", body, token);
      expect(answer.status).toBe(400);
      const refused = (await answer.json()) as { error: { message: string } };
      expect(refused.error.message).toBe(`${PREFIX}${message}`);
    }
    expect((await call("PATCH", "/api/auth/me", [], token)).status).toBe(400);
    expect(await names()).toEqual([null]);
  });

  it("answers 401 without a bearer", async () => {
    const { call } = await profileApp();
    expect((await call("PATCH", "/api/auth/me", { name: "Eve" })).status).toBe(401);
  });
});

describe("the profile on /account", () => {
  it("shows the name in a form that changes it", async () => {
    const { browser, names } = await profileApp();
    const send = await browser();
    const saved = await send("/account/profile", { name: "Ada <script>" });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("/account");
    const page = await (await send("/account")).text();
    expect(page).toContain("Your profile has been updated.");
    expect(page).toContain('action="/account/profile"');
    expect(page).toContain('value="Ada &lt;script&gt;"');
    expect(await names()).toEqual(["Ada <script>"]);
  });

  it("says what is wrong and keeps the name as it was", async () => {
    const { browser, names } = await profileApp();
    const send = await browser();
    await send("/account/profile", { name: "Ada" });
    const refused = await send("/account/profile", { name: "x".repeat(101) });
    expect(refused.status).toBe(303);
    const page = await (await send("/account")).text();
    expect(page).toContain("Name is too long (maximum is 100 characters)");
    expect(await names()).toEqual(["Ada"]);
  });
});
