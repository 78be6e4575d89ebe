import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  accountMessages,
  checkNewPassword,
  PWNED_RANGE_ANSWER_BYTES,
  type PwnedRangeFetch,
  pwnedPasswords,
} from "@tessera/accounts";
import { SqlUserStore, userMigrations } from "@tessera/accounts/sql";
import { readBoundedAnswer } from "@tessera/core";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type PwnedPasswordsDouble,
  sha1Upper,
  startPwnedPasswordsDouble,
} from "../../../test/support/pwned-passwords-double.js";
import { signUp } from "../src/users/signup.js";

// A fetch of the range request over the runtime's own fetch, keeping 128 KiB of the answer as
// the guarded fetches of @tessera/outbound do (which accounts does not depend on).
const rangeFetch: PwnedRangeFetch = async (request) => {
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      signal: AbortSignal.timeout(5000),
    });
    const answer = await readBoundedAnswer(response, PWNED_RANGE_ANSWER_BYTES);
    return {
      kind: "answered",
      status: response.status,
      answer: answer.text,
      complete: answer.complete,
    };
  } catch (error) {
    return { kind: "network-error", message: (error as Error).message };
  }
};

const BREACHED = "correct horse battery staple";
const CLEAN = "a long and unknown passphrase 8f3d";

let double: PwnedPasswordsDouble;
let logged: string[] = [];
const check = (timeoutMs?: number) =>
  pwnedPasswords({
    url: double.url,
    fetch: rangeFetch,
    onError: (line) => logged.push(line),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });

beforeAll(async () => {
  double = await startPwnedPasswordsDouble();
  double.breach(BREACHED, 3_861);
});
afterAll(() => double.close());
afterEach(() => {
  double.mode = "ranges";
  double.requests.length = 0;
  logged = [];
});

/** Asserts a log line says nothing of the password: neither it nor any part of its hash. */
function expectNothingOf(password: string, line: string) {
  const hash = sha1Upper(password);
  expect(line).not.toContain(password);
  expect(line.toUpperCase()).not.toContain(hash.slice(0, 5));
  expect(line.toUpperCase()).not.toContain(hash.slice(5, 15));
}

describe("pwnedPasswords", () => {
  it("finds a breached password, sending only the 5-hex prefix with Add-Padding", async () => {
    expect(await check()(BREACHED)).toBe(true);
    const hash = sha1Upper(BREACHED);
    expect(double.requests).toHaveLength(1);
    const [seen] = double.requests;
    expect(seen?.method).toBe("GET");
    expect(seen?.path).toBe(`/range/${hash.slice(0, 5)}`);
    expect(seen?.headers["add-padding"]).toBe("true");
    // Nothing else of the hash, nor the password, went anywhere in the request.
    const sent = JSON.stringify(seen).toUpperCase();
    expect(sent).not.toContain(hash.slice(5));
    expect(sent).not.toContain(hash);
    expect(JSON.stringify(seen)).not.toContain(BREACHED);
    expect(logged).toEqual([]);
  });

  it("lets a password through that its padded range does not hold", async () => {
    expect(await check()(CLEAN)).toBe(false);
    expect(double.requests[0]?.path).toBe(`/range/${sha1Upper(CLEAN).slice(0, 5)}`);
    expect(logged).toEqual([]);
  });

  it("does not count a padding line (count 0) with the password's own suffix as a hit", async () => {
    const padded = "padded but never breached 42";
    double.padWith(padded);
    expect(await check()(padded)).toBe(false);
    expect(logged).toEqual([]);
  });

  it("lets the password through and logs one line when the answer does not come in time", async () => {
    double.mode = "stall";
    expect(await check(200)(BREACHED)).toBe(false);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("no answer within 200 ms");
    expectNothingOf(BREACHED, logged[0]!);
  });

  it("waits 500 ms by default before letting the password through", async () => {
    double.mode = "stall";
    expect(await check()(BREACHED)).toBe(false);
    expect(logged).toEqual([expect.stringContaining("no answer within 500 ms")]);
  });

  for (const [mode, reason] of [
    ["error", "status 500"],
    ["garbage", "the answer is not a range"],
    ["empty", "the answer is not a range"],
    ["huge", "the answer was longer than expected"],
  ] as const) {
    it(`lets the password through and logs one line on a ${mode} answer`, async () => {
      double.mode = mode;
      expect(await check()(BREACHED)).toBe(false);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain(reason);
      expectNothingOf(BREACHED, logged[0]!);
    });
  }

  it("lets the password through and logs one line when the service cannot be reached", async () => {
    const unreachable = pwnedPasswords({
      url: "http://127.0.0.1:1/",
      fetch: rangeFetch,
      onError: (line) => logged.push(line),
    });
    expect(await unreachable(BREACHED)).toBe(false);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("network-error");
    expectNothingOf(BREACHED, logged[0]!);
  });

  it("lets the password through when the fetch itself throws, and keeps the prefix out of the line", async () => {
    const throwing = pwnedPasswords({
      url: double.url,
      fetch: async (request) => {
        throw new Error(`cannot GET ${request.url}`);
      },
      onError: (line) => logged.push(line),
    });
    expect(await throwing(BREACHED)).toBe(false);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("/range/…");
    expectNothingOf(BREACHED, logged[0]!);
  });
});

describe("checkNewPassword", () => {
  it("refuses a short password by the policy alone, without looking it up", async () => {
    expect(await checkNewPassword("short", { breachedPasswords: check() })).toEqual([
      "is too short (minimum is 8 characters)",
    ]);
    expect(double.requests).toEqual([]);
  });

  it("refuses a breached password with the message, in the request's language", async () => {
    expect(await checkNewPassword(BREACHED, { breachedPasswords: check() })).toEqual([
      "has appeared in a data breach; choose another",
    ]);
    expect(accountMessages.english["accounts.password.breached"]).toBe(
      "has appeared in a data breach; choose another",
    );
    const french = {
      tag: "fr",
      catalog: { "accounts.password.breached": "figure dans une fuite de données" },
    };
    expect(
      await checkNewPassword(BREACHED, { breachedPasswords: check(), locale: french }),
    ).toEqual(["figure dans une fuite de données"]);
  });

  it("accepts a clean password, and any password when no check is given", async () => {
    expect(await checkNewPassword(CLEAN, { breachedPasswords: check() })).toEqual([]);
    expect(await checkNewPassword(BREACHED)).toEqual([]);
    expect(double.requests).toHaveLength(1);
  });
});

describe("signUp with breachedPasswords", () => {
  const folder = mkdtempSync(join(tmpdir(), "tessera-breached-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("refuses a breached password on `password` with every other field, and creates no user", async () => {
    const database = openSqliteFile(join(folder, "users.db"));
    await applyMigrations(database, userMigrations);
    const users = new SqlUserStore(database);
    const dependencies = { users, passwords: { iterations: 1000 }, breachedPasswords: check() };
    const refused = await signUp(dependencies, { email: "not an email", password: BREACHED });
    expect(refused).toEqual({
      ok: false,
      fields: {
        email: ["is invalid"],
        password: ["has appeared in a data breach; choose another"],
      },
    });
    const created = await signUp(dependencies, { email: "ada@example.com", password: CLEAN });
    expect(created.ok).toBe(true);
    const rows = await database.all<{ email: string }>("SELECT email FROM users");
    expect(rows).toEqual([{ email: "ada@example.com" }]);
    await database.close();
  });
});
