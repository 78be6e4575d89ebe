import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { consumeEmailedToken, issueEmailedToken, peekEmailedToken } from "@tessera/accounts";
import { authTokensMigration, SqlEmailedTokenStore, usersMigration } from "@tessera/accounts/sql";
import { sha256Hex } from "@tessera/crypto";
import { applyMigrations, isUniqueViolation } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { startProcessGroup } from "../support/process-group.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-auth-tokens-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const T0 = Date.UTC(2025, 0, 1, 8, 0, 0);
const clock = () => T0;

interface TokenRow {
  id: number;
  user_id: number;
  purpose: string;
  digest: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

let files = 0;
async function setUp(userCount = 2) {
  const path = join(folder, `tokens-${++files}.db`);
  const database = openSqliteFile(path);
  // Given in the wrong order on purpose: ids decide the order, so auth_tokens follows users.
  expect(await applyMigrations(database, [authTokensMigration, usersMigration])).toEqual([
    "0001_tessera_users",
    "0003_tessera_auth_tokens",
  ]);
  for (let user = 1; user <= userCount; user++) {
    await database.run(
      "INSERT INTO users (email, created_at, updated_at) VALUES (?, '2025-01-01 00:00:00', '2025-01-01 00:00:00')",
      [`user${user}@example.com`],
    );
  }
  const rows = () => database.all<TokenRow>("SELECT * FROM auth_tokens ORDER BY id");
  return { path, database, store: new SqlEmailedTokenStore(database), rows };
}

describe("SqlEmailedTokenStore", () => {
  it("stores the digest with its expiry and timestamps, never the token", async () => {
    const { database, store, rows } = await setUp();
    const token = await issueEmailedToken(store, 1, "password_reset", clock);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await rows()).toEqual([
      {
        id: 1,
        user_id: 1,
        purpose: "password_reset",
        digest: sha256Hex(token),
        expires_at: "2025-01-01 08:15:00",
        created_at: "2025-01-01 08:00:00",
        updated_at: "2025-01-01 08:00:00",
      },
    ]);
    const dump = JSON.stringify(await database.all("SELECT * FROM auth_tokens"));
    expect(dump).not.toContain(token);
    database.close();
  });

  it("returns owner and expiry from consume and peek; consume deletes, peek does not", async () => {
    const { database, store, rows } = await setUp();
    const digest = sha256Hex("t");
    await store.issue({
      userId: 2,
      purpose: "magic_link",
      digest,
      expiresAt: T0 + 900_000,
      issuedAt: T0,
    });
    const record = { userId: 2, expiresAt: T0 + 900_000 };
    expect(await store.peek(digest, "magic_link")).toEqual(record);
    expect(await rows()).toHaveLength(1);
    expect(await store.consume(digest, "password_reset")).toBeUndefined();
    expect(await store.peek(digest, "password_reset")).toBeUndefined();
    expect(await rows()).toHaveLength(1);
    expect(await store.consume(digest, "magic_link")).toEqual(record);
    expect(await rows()).toEqual([]);
    expect(await store.consume(digest, "magic_link")).toBeUndefined();
    expect(await store.peek(digest, "magic_link")).toBeUndefined();
    database.close();
  });

  it("keeps one row per user and purpose: a new token replaces the previous in place", async () => {
    const { database, store, rows } = await setUp();
    const first = await issueEmailedToken(store, 1, "magic_link", clock);
    const reset = await issueEmailedToken(store, 1, "password_reset", clock);
    const other = await issueEmailedToken(store, 2, "magic_link", clock);
    const later = () => T0 + 60_000;
    const second = await issueEmailedToken(store, 1, "magic_link", later);

    expect(await rows()).toEqual([
      expect.objectContaining({
        id: 1,
        user_id: 1,
        purpose: "magic_link",
        digest: sha256Hex(second),
        expires_at: "2025-01-01 08:16:00",
        created_at: "2025-01-01 08:00:00",
        updated_at: "2025-01-01 08:01:00",
      }),
      expect.objectContaining({ user_id: 1, purpose: "password_reset", digest: sha256Hex(reset) }),
      expect.objectContaining({ user_id: 2, purpose: "magic_link", digest: sha256Hex(other) }),
    ]);
    expect(await consumeEmailedToken(store, first, "magic_link", later)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await consumeEmailedToken(store, second, "magic_link", later)).toEqual({
      ok: true,
      value: { userId: 1 },
    });
    database.close();
  });

  it("is constrained by the database: known purposes only, one row per purpose, unique digests", async () => {
    const { database } = await setUp();
    const insert = (userId: number, purpose: string, digest: string) =>
      database.run(
        "INSERT INTO auth_tokens (user_id, purpose, digest, expires_at, created_at, updated_at) VALUES (?, ?, ?, '', '', '')",
        [userId, purpose, digest],
      );
    await insert(1, "magic_link", "a");
    await expect(insert(1, "api_key", "b")).rejects.toThrow(/CHECK constraint failed/);
    const samePurpose = await insert(1, "magic_link", "c").catch((error: unknown) => error);
    expect(isUniqueViolation(samePurpose)).toBe(true);
    const sameDigest = await insert(2, "magic_link", "a").catch((error: unknown) => error);
    expect(isUniqueViolation(sameDigest)).toBe(true);
    await expect(insert(99, "magic_link", "d")).rejects.toThrow(/FOREIGN KEY constraint failed/);
    database.close();
  });

  it("deletes a user's tokens with the user", async () => {
    const { database, store, rows } = await setUp();
    const token = await issueEmailedToken(store, 1, "magic_link", clock);
    await issueEmailedToken(store, 1, "email_confirmation", clock);
    await issueEmailedToken(store, 2, "magic_link", clock);
    await database.run("DELETE FROM users WHERE id = ?", [1]);
    expect((await rows()).map((row) => row.user_id)).toEqual([2]);
    expect((await peekEmailedToken(store, token, "magic_link", clock)).ok).toBe(false);
    database.close();
  });
});

describe("emailed tokens under concurrent use", () => {
  it("lets exactly one of many simultaneous consumes on one connection succeed", async () => {
    const { database, store, rows } = await setUp();
    const token = await issueEmailedToken(store, 1, "password_reset", clock);
    const results = await Promise.all(
      Array.from({ length: 25 }, () => consumeEmailedToken(store, token, "password_reset", clock)),
    );
    expect(results.filter((result) => result.ok)).toEqual([{ ok: true, value: { userId: 1 } }]);
    expect(await rows()).toEqual([]);
    database.close();
  });

  it("lets exactly one succeed across two connections to one file", async () => {
    const { path, database, store } = await setUp();
    const second = openSqliteFile(path);
    const otherStore = new SqlEmailedTokenStore(second);
    const token = await issueEmailedToken(store, 1, "magic_link", clock);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        consumeEmailedToken(index % 2 ? store : otherStore, token, "magic_link", clock),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    second.close();
    database.close();
  });

  it("consumes each token exactly once when separate processes race for every one", async () => {
    const count = 120;
    const { path, database, store } = await setUp(count);
    const digests: string[] = [];
    for (let user = 1; user <= count; user++) {
      digests.push(sha256Hex(await issueEmailedToken(store, user, "magic_link", clock)));
    }
    database.close();

    const processes = Array.from({ length: 4 }, () => startConsumer(path));
    await Promise.all(processes.map((consumer) => consumer.ready));
    // Released together: every process tries every token, in the same order.
    for (const consumer of processes) consumer.go(digests);
    const won = (await Promise.all(processes.map((consumer) => consumer.done))).flat();

    expect(won.toSorted((a, b) => a - b)).toEqual(
      Array.from({ length: count }, (_, index) => index + 1),
    );
  });
});

const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));

// A separate Node process (TypeScript through tsx) on its own connection: it opens the file,
// says "ready", waits for the digests on stdin, consumes each, and prints the user ids it won.
const CONSUMER = `
import { createInterface } from "node:readline";
const { SqlEmailedTokenStore } = await import("./packages/accounts/src/email-link/sql-emailed-token-store.ts");
const { openSqliteFile } = await import("./packages/sqlite/src/better-sqlite3.ts");
const database = openSqliteFile(process.env.TOKENS_DATABASE);
const store = new SqlEmailedTokenStore(database);
console.log("ready");
const lines = createInterface({ input: process.stdin });
const digests = JSON.parse(await new Promise((resolve) => lines.once("line", resolve)));
lines.close();
const won = [];
for (const digest of digests) {
  const record = await store.consume(digest, "magic_link");
  if (record) won.push(record.userId);
}
database.close();
console.log(JSON.stringify(won));
`;

/** Starts a consumer on the file at `path`. Call it inside a test, which stops it when it ends. */
function startConsumer(path: string) {
  const group = startProcessGroup(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "--eval", CONSUMER],
    { cwd: repositoryRoot, env: { ...process.env, TOKENS_DATABASE: path } },
  );
  onTestFinished(() => group.stop());
  const child = group.child;
  let output = "";
  let errors = "";
  let announceReady: () => void;
  const ready = new Promise<void>((resolve) => {
    announceReady = resolve;
  });
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
    if (output.startsWith("ready\n")) announceReady();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    errors += chunk;
  });
  const done = new Promise<number[]>((resolve, reject) => {
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`consumer exited with ${code}: ${errors}`));
      else resolve(JSON.parse(output.slice("ready\n".length)) as number[]);
    });
  });
  // A consumer that dies before it is ready must fail the test, not hang it.
  done.catch(() => announceReady());
  return {
    ready,
    done,
    go: (digests: string[]) => child.stdin.end(`${JSON.stringify(digests)}\n`),
  };
}
