// Every JSON answer that shows a secret once (an API key, a TOTP setup, backup codes) is
// Cache-Control: no-store, so no cache between the client and the app keeps a copy of it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
import { routeRequests } from "@tessera/http";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { accountRoutes, totpCode } from "../src/index.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-secret-answers-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const PASSWORD = "correct horse battery staple";

describe("answers that show a secret once", () => {
  it("are Cache-Control: no-store: API keys, TOTP setup and backup codes", async () => {
    const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
    await applyMigrations(database, accountMigrations);
    const accounts = accountRoutes({
      ...sqlAccountStores(database),
      secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
      appUrl: "https://app.example",
      passwords: { iterations: 1000 },
    });
    const handle = routeRequests(accounts.routes);
    let token = "";
    const post = async (path: string, body: unknown) => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (token) headers.authorization = `Bearer ${token}`;
      const request = new Request(`https://app.example${path}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      const response = (await handle(request, { clientAddress: "203.0.113.9" }))!;
      return {
        status: response.status,
        cacheControl: response.headers.get("cache-control"),
        body: (await response.json()) as Record<string, unknown>,
      };
    };
    const credentials = { email: "once@example.com", password: PASSWORD };
    expect((await post("/api/auth/signup", credentials)).status).toBe(201);
    token = (await post("/api/auth/token", credentials)).body.token as string;

    const key = await post("/api/auth/keys", { name: "CI" });
    expect({ status: key.status, cacheControl: key.cacheControl }).toEqual({
      status: 201,
      cacheControl: "no-store",
    });
    const setup = await post("/api/auth/mfa/totp", { password: PASSWORD });
    expect({ status: setup.status, cacheControl: setup.cacheControl }).toEqual({
      status: 201,
      cacheControl: "no-store",
    });
    const secret = decodeBase32IgnorePadding(setup.body.secret as string);
    const confirmed = await post("/api/auth/mfa/totp/confirm", {
      code: totpCode(secret, Date.now()),
    });
    expect({ status: confirmed.status, cacheControl: confirmed.cacheControl }).toEqual({
      status: 200,
      cacheControl: "no-store",
    });
    expect(confirmed.body.backup_codes).toHaveLength(10);
    // New codes are asked for from a sign-in that passed the second step (a backup code here).
    const challenge = await post("/api/auth/token", credentials);
    const [backupCode] = confirmed.body.backup_codes as string[];
    const signedIn = await post("/api/auth/token/mfa", {
      mfa_token: challenge.body.mfa_token,
      code: backupCode,
    });
    token = signedIn.body.token as string;
    const renewed = await post("/api/auth/mfa/backup_codes", { password: PASSWORD });
    expect({ status: renewed.status, cacheControl: renewed.cacheControl }).toEqual({
      status: 200,
      cacheControl: "no-store",
    });
  });
});
