// `tessera keys rotate` run as the command runs (in process), on SQLite files migrated with
// @tessera/bearer's `signingKeysMigration` by `tessera migrate`, and on the test run's PostgreSQL.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { currentSigningKey, type SigningKeyRecord, verifyingKeys } from "@tessera/bearer";
import { SqlSigningKeyStore, signingKeysMigration } from "@tessera/bearer/sql";
import { migrationSql, type SqlDatabase } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPostgresSchema } from "../../../test/support/postgres.js";
import { runCli } from "../src/run.js";
import type { Run } from "./support/tessera-process.js";

const SECRET = "a-secret-key-base-of-forty-characters-ok";
const OTHER_SECRET = "another-secret-key-base-of-forty-chars-x";
/** The settings of an app that keeps EdDSA keys in its database. */
const EDDSA = { JWT_ALGORITHM: "EdDSA", SECRET_KEY_BASE: SECRET };
const HS256_HINT =
  "HS256 tokens are signed with a key derived from SECRET_KEY_BASE: rotate that secret instead (the old value in SECRET_KEY_BASE_PREVIOUS keeps verifying); with JWT_ALGORITHM=EdDSA or ES256, as the app runs, this command rotates the database's signing keys";
const SECRET_HINT =
  "set SECRET_KEY_BASE to the app's secret (in development the app keeps it in data/secret_key_base: `SECRET_KEY_BASE=$(cat data/secret_key_base) tessera keys rotate`): the new private key is sealed under it, and the app must open it";

let app: string;
beforeEach(() => {
  app = mkdtempSync(join(tmpdir(), "tessera-keys-"));
});
afterEach(() => {
  rmSync(app, { recursive: true, force: true });
});

/**
 * `tessera <args>` in the app with exactly `env` as its environment (none of this process's,
 * so a setting left out is unset).
 */
async function tessera(args: readonly string[], env: Record<string, string>): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const status = await runCli(args, {
    cwd: app,
    env,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { status, stdout, stderr };
}

/** The signing keys migration, written into migrations/ and applied by `tessera migrate`. */
async function migratedApp(
  dialect: "sqlite" | "postgres" = "sqlite",
  env: Record<string, string> = {},
): Promise<void> {
  mkdirSync(join(app, "migrations"));
  writeFileSync(
    join(app, "migrations", "0001_tessera_signing_keys.sql"),
    migrationSql(signingKeysMigration.sql, dialect),
  );
  const migrated = await tessera(["migrate"], env);
  expect(migrated.stderr).toBe("");
  expect(migrated.status).toBe(0);
}

/** The app's SQLite file, for `use`, then closed. */
async function withSqlite<T>(use: (database: SqlDatabase) => Promise<T>): Promise<T> {
  const database = openSqliteFile(join(app, "data/app.db"));
  try {
    return await use(database);
  } finally {
    database.close();
  }
}

/** The stored keys as the app reads them, opened with `secrets`. */
function storedKeys(
  database: SqlDatabase,
  secrets: { current: string; previous?: string } = { current: SECRET },
): Promise<SigningKeyRecord[]> {
  return new SqlSigningKeyStore(database, { secrets }).list();
}

/** The rows of `signing_keys` as stored. */
function rows(): { kid: string; alg: string; generation: number; sealed_key: string }[] {
  const database = new Database(join(app, "data/app.db"));
  try {
    return database
      .prepare("SELECT kid, alg, generation, sealed_key FROM signing_keys ORDER BY generation")
      .all() as { kid: string; alg: string; generation: number; sealed_key: string }[];
  } finally {
    database.close();
  }
}

const ADDED =
  /^data\/app\.db: added signing key ([A-Za-z0-9_-]{43}) \((EdDSA|ES256)\); (.+); running processes sign with it within a minute\n$/;

describe("tessera keys rotate on SQLite", () => {
  it("adds one new current key each time, sealed, the older ones still listed and verifying", async () => {
    await migratedApp();
    const outputs: string[] = [];
    const kids: string[] = [];
    for (const round of [1, 2, 3]) {
      const run = await tessera(["keys", "rotate"], EDDSA);
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      const [, kid = "", alg, previous] = ADDED.exec(run.stdout) ?? [];
      expect(alg).toBe("EdDSA");
      expect(previous).toBe(
        round === 1
          ? "the first key in the database"
          : "the previous keys verify until their tokens expire",
      );
      outputs.push(run.stdout);
      kids.push(kid);

      const keys = await withSqlite((database) => storedKeys(database));
      expect(keys.map((key) => key.generation)).toEqual([1, 2, 3].slice(0, round));
      expect(keys.map((key) => key.privateJwk.kid)).toEqual(kids);
      const now = Date.now();
      expect(currentSigningKey(keys, now)?.privateJwk.kid).toBe(kid);
      // The replaced keys verify for a token's lifetime after their successor was made.
      expect(verifyingKeys(keys, now, 3_600_000).map((key) => key.privateJwk.kid)).toEqual(
        [...kids].reverse(),
      );
    }
    expect(new Set(kids).size).toBe(3);

    const stored = rows();
    expect(stored.map(({ kid, alg, generation }) => ({ kid, alg, generation }))).toEqual(
      kids.map((kid, index) => ({ kid, alg: "EdDSA", generation: index + 1 })),
    );
    const keys = await withSqlite((database) => storedKeys(database));
    for (const [index, row] of stored.entries()) {
      expect(row.sealed_key).not.toContain('"d":');
      expect(row.sealed_key).not.toContain(keys[index]!.privateJwk.d);
    }
    // Nothing printed holds a private key.
    for (const output of outputs) {
      expect(output).not.toContain('"d"');
      for (const key of keys) expect(output).not.toContain(key.privateJwk.d);
    }
  });

  it("adds a key of the algorithm the app now uses, and answers in JSON", async () => {
    await migratedApp();
    expect((await tessera(["keys", "rotate"], EDDSA)).status).toBe(0);
    const run = await tessera(["keys", "rotate", "--json"], { ...EDDSA, JWT_ALGORITHM: "ES256" });
    expect(run.status).toBe(0);
    const answer = JSON.parse(run.stdout) as Record<string, unknown>;
    const keys = await withSqlite((database) => storedKeys(database));
    expect(answer).toEqual({
      ok: true,
      kid: keys[1]!.privateJwk.kid,
      alg: "ES256",
      generation: 2,
      keys: 2,
    });
    expect(keys.map((key) => key.privateJwk.alg)).toEqual(["EdDSA", "ES256"]);
    expect(currentSigningKey(keys, Date.now())?.privateJwk.alg).toBe("ES256");
    for (const key of keys) expect(run.stdout).not.toContain(key.privateJwk.d);
  });

  it("takes the database from --database, DATABASE_URL or DATABASE_PATH", async () => {
    await migratedApp("sqlite", { DATABASE_PATH: "keys.db" });
    const run = await tessera(["keys", "rotate"], { ...EDDSA, DATABASE_PATH: "keys.db" });
    expect(run.stdout).toMatch(/^keys\.db: added signing key /);
    const other = await tessera(["keys", "rotate", "--database", "keys.db"], EDDSA);
    expect(other.stdout).toMatch(/^keys\.db: added signing key .*the previous keys verify/);
    expect(existsSync(join(app, "data"))).toBe(false);
  });

  it("seals under SECRET_KEY_BASE once SECRET_KEY_BASE_PREVIOUS opens the older keys", async () => {
    await migratedApp();
    expect((await tessera(["keys", "rotate"], EDDSA)).status).toBe(0);

    const wrong = await tessera(["keys", "rotate"], { ...EDDSA, SECRET_KEY_BASE: OTHER_SECRET });
    expect(wrong.status).toBe(1);
    expect(wrong.stdout).toBe("");
    expect(wrong.stderr).toMatch(
      /^error: signing key [A-Za-z0-9_-]{43} does not open \(.+\): was SECRET_KEY_BASE changed without SECRET_KEY_BASE_PREVIOUS\?\nhint: set SECRET_KEY_BASE \(and SECRET_KEY_BASE_PREVIOUS, after a change of the secret\) to the values the app runs with; nothing was added\n$/,
    );
    expect(rows()).toHaveLength(1);

    const rotated = { ...EDDSA, SECRET_KEY_BASE: OTHER_SECRET, SECRET_KEY_BASE_PREVIOUS: SECRET };
    expect((await tessera(["keys", "rotate"], rotated)).status).toBe(0);
    const keys = await withSqlite((database) =>
      storedKeys(database, { current: OTHER_SECRET, previous: SECRET }),
    );
    expect(keys.map((key) => key.generation)).toEqual([1, 2]);
    // The new key is sealed under the new secret alone: the old one does not open it.
    await expect(withSqlite((database) => storedKeys(database))).rejects.toThrow(
      /^signing key \S+ does not open/,
    );
  });

  it.each([
    [
      { SECRET_KEY_BASE: SECRET },
      "JWT_ALGORITHM is not set, so tokens are HS256: no key to rotate",
    ],
    [
      { ...EDDSA, JWT_ALGORITHM: " " },
      "JWT_ALGORITHM is not set, so tokens are HS256: no key to rotate",
    ],
    [{ ...EDDSA, JWT_ALGORITHM: "HS256" }, "JWT_ALGORITHM is HS256: no key to rotate"],
  ])("refuses HS256 (%j), whose key derives from the secret", async (env, reason) => {
    await migratedApp();
    expect(await tessera(["keys", "rotate"], env)).toEqual({
      status: 1,
      stdout: "",
      stderr: `error: ${reason}\nhint: ${HS256_HINT}\n`,
    });
    expect(rows()).toEqual([]);
  });

  it("refuses an algorithm it does not know, and JWT_PRIVATE_KEYS", async () => {
    await migratedApp();
    expect(await tessera(["keys", "rotate"], { ...EDDSA, JWT_ALGORITHM: "RS256" })).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "error: unknown JWT_ALGORITHM `RS256`\n" +
        "hint: write JWT_ALGORITHM=EdDSA or JWT_ALGORITHM=ES256, as the app runs with\n",
    });
    const privateKeys = JSON.stringify({ keys: [{ kty: "OKP", d: "not-printed" }] });
    const given = await tessera(["keys", "rotate"], { ...EDDSA, JWT_PRIVATE_KEYS: privateKeys });
    expect(given).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "error: JWT_PRIVATE_KEYS is set: the app signs with the keys it gives, not the database's\n" +
        "hint: rotate by putting a new private key first in JWT_PRIVATE_KEYS and keeping the old ones after it until their tokens expire; if the app keeps its keys in the database, run this command without JWT_PRIVATE_KEYS\n",
    });
    expect(rows()).toEqual([]);
  });

  it("refuses a missing or short SECRET_KEY_BASE, and a short SECRET_KEY_BASE_PREVIOUS", async () => {
    await migratedApp();
    expect(await tessera(["keys", "rotate"], { JWT_ALGORITHM: "EdDSA" })).toEqual({
      status: 1,
      stdout: "",
      stderr: `error: SECRET_KEY_BASE is not set\nhint: ${SECRET_HINT}\n`,
    });
    const short = "x".repeat(31);
    expect(await tessera(["keys", "rotate"], { ...EDDSA, SECRET_KEY_BASE: short })).toEqual({
      status: 1,
      stdout: "",
      stderr: `error: SECRET_KEY_BASE is too short: it needs at least 32 characters\nhint: ${SECRET_HINT}\n`,
    });
    const previous = await tessera(["keys", "rotate", "--json"], {
      ...EDDSA,
      SECRET_KEY_BASE_PREVIOUS: short,
    });
    expect(previous.status).toBe(1);
    expect(JSON.parse(previous.stdout)).toEqual({
      ok: false,
      error: "SECRET_KEY_BASE_PREVIOUS is too short: it needs at least 32 characters",
      hint: "set it to the secret the app had before SECRET_KEY_BASE, as the app runs with, or leave it unset",
    });
    expect(rows()).toEqual([]);
    // 32 characters are enough.
    expect(
      (await tessera(["keys", "rotate"], { ...EDDSA, SECRET_KEY_BASE: "y".repeat(32) })).status,
    ).toBe(0);
  });

  it("refuses a database without signing_keys, and a SQLite file that does not exist", async () => {
    new Database(join(app, "empty.db")).close();
    expect(await tessera(["keys", "rotate", "--database", "empty.db"], EDDSA)).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "error: the database has no `signing_keys` table\n" +
        "hint: start the app with JWT_ALGORITHM=EdDSA or ES256, which applies its migrations (or run them: `tessera migrate`), then run this command again; check that --database, DATABASE_URL or DATABASE_PATH names the app's database\n",
    });
    expect(await tessera(["keys", "rotate"], EDDSA)).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "error: cannot use the database: there is no SQLite file `data/app.db`\n" +
        "hint: check the path of the SQLite file\n",
    });
    expect(existsSync(join(app, "data"))).toBe(false);
  });

  it("refuses words after the command and options it does not take, as usage errors", async () => {
    expect(await tessera(["keys", "rotate", "EdDSA"], EDDSA)).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "error: unexpected `EdDSA`\n" +
        "hint: `tessera keys rotate` takes no names: JWT_ALGORITHM and SECRET_KEY_BASE come from the environment\n",
    });
    const unknown = await tessera(["keys", "list"], EDDSA);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(
      /^error: unknown command `keys list`\nhint: the commands are .*`keys rotate`/,
    );
    expect((await tessera(["keys", "rotate", "--pretend"], EDDSA)).stderr).toBe(
      "error: --pretend applies to the generators only\nhint: `tessera migrate --status` lists what migrate would apply\n",
    );
  });
});

describe("tessera keys rotate on PostgreSQL", () => {
  it("adds a key in a schema of the server, without printing the password", async () => {
    const schema = await createPostgresSchema();
    try {
      const env = { ...EDDSA, DATABASE_URL: schema.url };
      await migratedApp("postgres", env);
      const first = await tessera(["keys", "rotate"], env);
      const second = await tessera(["keys", "rotate", "--json"], env);
      expect(first.stderr + second.stderr).toBe("");
      const url = new URL(schema.url);
      expect(first.stdout.startsWith(`postgres://${url.username}@${url.host}`)).toBe(true);
      if (url.password) expect(first.stdout).not.toContain(url.password);
      expect(first.stdout).toMatch(
        /: added signing key \S+ \(EdDSA\); the first key in the database;/,
      );
      const keys = await storedKeys(schema.database);
      expect(keys.map((key) => key.generation)).toEqual([1, 2]);
      expect(JSON.parse(second.stdout)).toEqual({
        ok: true,
        kid: keys[1]!.privateJwk.kid,
        alg: "EdDSA",
        generation: 2,
        keys: 2,
      });
      expect(currentSigningKey(keys, Date.now())?.privateJwk.kid).toBe(keys[1]!.privateJwk.kid);
      const sealed = await schema.database.all<{ sealed_key: string }>(
        "SELECT sealed_key FROM signing_keys",
      );
      for (const row of sealed) expect(row.sealed_key).not.toContain('"d":');
    } finally {
      await schema.drop();
    }
  });

  it("refuses a schema without signing_keys", async () => {
    const schema = await createPostgresSchema();
    try {
      const run = await tessera(["keys", "rotate"], { ...EDDSA, DATABASE_URL: schema.url });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^error: the database has no `signing_keys` table\n/);
    } finally {
      await schema.drop();
    }
  });
});
