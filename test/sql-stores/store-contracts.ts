// The store contracts of the packages, run against their memory store and their SQL store on
// SQLite, on D1 (miniflare's workerd), on a PostgreSQL server (through pg and postgres.js) and
// on PGlite (docs/stores.md lists them). One test file per engine (store-contracts.*.test.ts),
// so the engines run side by side: together they take minutes, D1 and PostgreSQL most. The
// suites come from the packages' `/testing` entries: the contracts a user runs on a store of
// their own are the ones run here.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { CachedUserStore } from "@tessera/accounts";
import {
  accountMigrations,
  SqlAuditLog,
  SqlEmailChangeStore,
  SqlEmailCodeStore,
  SqlEmailedTokenStore,
  SqlPasskeyStore,
  SqlSecondFactorStore,
  SqlUserStore,
} from "@tessera/accounts/sql";
import {
  describeAuditLogContract,
  describeEmailChangeStoreContract,
  describeEmailCodeStoreContract,
  describeEmailedTokenStoreContract,
  describePasskeyStoreContract,
  describeSecondFactorStoreContract,
  describeUserStoreContract,
  MemoryAuditLog,
  MemoryEmailChangeStore,
  MemoryEmailCodeStore,
  MemoryEmailedTokenStore,
  MemoryPasskeyStore,
  MemorySecondFactorStore,
  MemoryUserStore,
} from "@tessera/accounts/testing";
import { CachedApiKeyStore } from "@tessera/bearer";
import {
  refreshTokensMigration,
  SqlApiKeyStore,
  SqlRefreshTokenStore,
  SqlSigningKeyStore,
  signingKeysMigration,
} from "@tessera/bearer/sql";
import {
  describeApiKeyStoreContract,
  describeRefreshTokenStoreContract,
  describeSigningKeyStoreContract,
  MemoryApiKeyStore,
  MemoryRefreshTokenStore,
  MemorySigningKeyStore,
} from "@tessera/bearer/testing";
import { jobTableMigration, SqlJobStore } from "@tessera/jobs/sql";
import { contractJob, describeJobStoreContract, MemoryJobStore } from "@tessera/jobs/testing";
import { identitiesMigration, SqlIdentityStore } from "@tessera/oauth/sql";
import { describeIdentityStoreContract, MemoryIdentityStore } from "@tessera/oauth/testing";
import { organizationMigrations, SqlOrganizationStore } from "@tessera/organizations/sql";
import {
  describeOrganizationStoreContract,
  type MemberProfile,
  MemoryOrganizationStore,
} from "@tessera/organizations/testing";
import { MemoryOutboundStore } from "@tessera/outbound";
import { outboundMigrations, SqlOutboundStore } from "@tessera/outbound/sql";
import { describeOutboundStoreContract } from "@tessera/outbound/testing";
import { MemoryOutbox } from "@tessera/outbox";
import { outboxMigrations, SqlOutbox } from "@tessera/outbox/sql";
import { describeOutboxContract } from "@tessera/outbox/testing";
import { wrapPglite } from "@tessera/postgres/pglite";
import { wrapPostgresJs } from "@tessera/postgres/postgres-js";
import { SqlFailureStreakStore, SqlRateLimitStore } from "@tessera/ratelimit/sql";
import {
  describeFailureStreakStoreContract,
  describeRateLimitStoreContract,
  MemoryFailureStreakStore,
  MemoryRateLimitStore,
} from "@tessera/ratelimit/testing";
import { recordMigration, SqlRecordStore } from "@tessera/records/sql";
import {
  contractModels,
  describeRecordStoreContract,
  MemoryRecordStore,
  MemoryRecordTables,
} from "@tessera/records/testing";
import { SqlTrackedSessionStore } from "@tessera/session/sql";
import {
  describeTrackedSessionStoreContract,
  MemoryTrackedSessionStore,
} from "@tessera/session/testing";
import { applyMigrations, type SqlDatabase } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { d1Database } from "@tessera/sqlite/d1";
import { SqlWebhookEventStore, webhookMigrations } from "@tessera/webhooks/sql";
import {
  describeWebhookEventStoreContract,
  MemoryWebhookEventStore,
} from "@tessera/webhooks/testing";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createPostgresSchema, freshPostgresDatabase } from "../support/postgres.js";
import { startD1Worker } from "./support/d1-worker.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-store-contracts-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Each SQL engine: a new empty database per test, with the account and webhook tables. */
const engines = {
  SQLite: async () => {
    const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
    onTestFinished(() => database.close());
    return database;
  },
  // D1 as workerd runs it: one Worker per file (starting one costs about a second) with a
  // database binding per use, so each test starts empty. The statements run inside the Worker,
  // one request each (see startD1Worker).
  D1: async () => {
    if (d1Uses >= D1_BINDINGS.length) throw new Error("more D1 databases asked for than bound");
    d1Worker ??= startD1Worker(D1_BINDINGS);
    return d1Database(d1Worker.connection(D1_BINDINGS[d1Uses++]!));
  },
  PostgreSQL: freshPostgresDatabase,
  "PostgreSQL (postgres.js)": async () => {
    const schema = await createPostgresSchema();
    const database = wrapPostgresJs(postgres(schema.url, { max: 4, onnotice: () => {} }));
    onTestFinished(async () => {
      await database.close();
      await schema.drop();
    });
    return database;
  },
  // PostgreSQL in this process (WebAssembly): one per file, a schema of its own per test.
  PGlite: async () => {
    const database = await startedPglite();
    const schema = `test_${crypto.randomUUID().replaceAll("-", "")}`;
    await database.execScript(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
    onTestFinished(() => database.execScript(`RESET search_path; DROP SCHEMA ${schema} CASCADE`));
    return database;
  },
} satisfies Record<string, () => Promise<SqlDatabase>>;

/** The SQL engines the contracts run on, by the name the test titles use. */
export type EngineName = keyof typeof engines;

let pglite: Promise<ReturnType<typeof wrapPglite>> | undefined;
afterAll(async () => (await pglite)?.close());
const D1_BINDINGS = Array.from({ length: 200 }, (_, index) => `DB${index}`);
let d1Worker: ReturnType<typeof startD1Worker> | undefined;
let d1Uses = 0;
afterAll(async () => d1Worker?.dispose());

function startedPglite(): Promise<ReturnType<typeof wrapPglite>> {
  pglite ??= PGlite.create().then(wrapPglite);
  return pglite;
}

/**
 * What an engine starts once per file (PGlite compiles its WebAssembly, D1 starts workerd),
 * started before the first test: on a busy machine it took longer than a test's timeout.
 */
const engineStarts: Partial<Record<EngineName, () => Promise<unknown>>> = {
  PGlite: startedPglite,
  D1: async () => {
    d1Worker ??= startD1Worker(D1_BINDINGS);
    await d1Worker.ready();
  },
};
const ENGINE_START_TIMEOUT_MS = 120_000;

/** Makes users, so keys have an owner to belong to (the SQL table requires one). */
/** A new database of `open`'s engine with the account and webhook tables. */
async function migratedOn(open: () => Promise<SqlDatabase>): Promise<SqlDatabase> {
  const database = await open();
  await applyMigrations(database, [...accountMigrations, ...webhookMigrations]);
  return database;
}

function userMaker(users: MemoryUserStore | SqlUserStore) {
  return async () => {
    const created = await users.create(
      { email: `${crypto.randomUUID()}@example.com`, passwordDigest: "" },
      0,
    );
    if (!created.ok) throw new Error("created");
    return created.value.id;
  };
}

/** The contracts on the memory stores, and on SQLite behind the credential caches. */
export function describeMemoryStoreContracts(): void {
  describeWebhookEventStoreContract("memory", async () => new MemoryWebhookEventStore());
  describeRateLimitStoreContract("memory", async () => new MemoryRateLimitStore());
  describeFailureStreakStoreContract("memory", async () => new MemoryFailureStreakStore());
  describeApiKeyStoreContract("memory", async () => ({
    store: new MemoryApiKeyStore(),
    newUser: userMaker(new MemoryUserStore()),
  }));
  describeSigningKeyStoreContract("memory", async () => new MemorySigningKeyStore());
  describeRefreshTokenStoreContract("memory", async () => ({
    store: new MemoryRefreshTokenStore(),
    newUser: userMaker(new MemoryUserStore()),
  }));
  describeRecordStoreContract("memory", async () => {
    const tables = new MemoryRecordTables();
    let users = 0;
    return { store: (model) => new MemoryRecordStore(tables, model), newUser: async () => ++users };
  });
  describeIdentityStoreContract("memory", async () => {
    let users = 0;
    return { store: new MemoryIdentityStore(), newUser: async () => ++users };
  });
  describeJobStoreContract("memory", async () => {
    let users = 0;
    return { store: new MemoryJobStore(contractJob), newUser: async () => ++users };
  });
  describeUserStoreContract("memory", async () => new MemoryUserStore());
  describeOutboxContract("memory", async (clock) => {
    const outbox = new MemoryOutbox({ clock });
    return { outbox, writer: outbox, transaction: (work) => outbox.transaction(work) };
  });
  describeOutboundStoreContract("memory", async () => {
    const outbox = new MemoryOutbox();
    return { store: new MemoryOutboundStore({ outbox }), writer: outbox, outbox };
  });
  describeOrganizationStoreContract("memory", async () => {
    const users = new Map<number, MemberProfile>();
    return {
      store: new MemoryOrganizationStore((id) => users.get(id)),
      async newUser(email, name) {
        users.set(users.size + 1, { email, name });
        return users.size;
      },
    };
  });
  // The credential caches keep the contract: every change goes through them.
  const staleness = { maximumStalenessMs: 60_000 };
  describeUserStoreContract(
    "SQLite behind CachedUserStore",
    async () => new CachedUserStore(new SqlUserStore(await migratedOn(engines.SQLite)), staleness),
  );
  describeApiKeyStoreContract("SQLite behind CachedApiKeyStore", async () => {
    const database = await migratedOn(engines.SQLite);
    return {
      store: new CachedApiKeyStore(new SqlApiKeyStore(database), staleness),
      newUser: userMaker(new SqlUserStore(database)),
    };
  });
  describeAuditLogContract("memory", async () => new MemoryAuditLog());
  describeEmailedTokenStoreContract("memory", async () => ({
    store: new MemoryEmailedTokenStore(),
    users: new MemoryUserStore(),
  }));
  describeTrackedSessionStoreContract("memory", async () => ({
    store: new MemoryTrackedSessionStore(),
    newUser: userMaker(new MemoryUserStore()),
  }));
  describeSecondFactorStoreContract("memory", async () => ({
    store: new MemorySecondFactorStore(),
    newUser: userMaker(new MemoryUserStore()),
  }));
  describeEmailCodeStoreContract("memory", async () => ({
    store: new MemoryEmailCodeStore(),
    newUser: userMaker(new MemoryUserStore()),
  }));
  describeEmailChangeStoreContract("memory", async () => ({
    store: new MemoryEmailChangeStore(),
    newUser: userMaker(new MemoryUserStore()),
  }));
  describePasskeyStoreContract("memory", async () => ({
    store: new MemoryPasskeyStore(),
    newUser: userMaker(new MemoryUserStore()),
  }));
}

/** The contracts on the SQL stores over `engine`. */
export function describeSqlStoreContracts(engine: EngineName): void {
  const open = engines[engine];
  const migrated = () => migratedOn(open);
  const start = engineStarts[engine];
  if (start) beforeAll(start, ENGINE_START_TIMEOUT_MS);

  describeWebhookEventStoreContract(engine, async () => new SqlWebhookEventStore(await migrated()));
  describeRateLimitStoreContract(engine, async () => new SqlRateLimitStore(await migrated()));
  describeFailureStreakStoreContract(
    engine,
    async () => new SqlFailureStreakStore(await migrated()),
  );
  describeApiKeyStoreContract(engine, async () => {
    const database = await migrated();
    return { store: new SqlApiKeyStore(database), newUser: userMaker(new SqlUserStore(database)) };
  });
  describeSigningKeyStoreContract(engine, async () => {
    const database = await open();
    await applyMigrations(database, [signingKeysMigration]);
    return new SqlSigningKeyStore(database, {
      secrets: { current: "a secret key base of at least thirty-two characters" },
    });
  });
  describeRefreshTokenStoreContract(engine, async () => {
    const database = await migrated();
    await applyMigrations(database, [refreshTokensMigration]);
    const users = new SqlUserStore(database);
    return {
      store: new SqlRefreshTokenStore(database),
      newUser: userMaker(users),
      deleteUser: (id) => users.delete(id),
    };
  });
  describeRecordStoreContract(engine, async () => {
    const database = await migrated();
    await applyMigrations(
      database,
      Object.values(contractModels).map((model, index) =>
        recordMigration(model, `090${index}_contract_${model.table}`),
      ),
    );
    return {
      store: (model) => new SqlRecordStore(database, model),
      newUser: userMaker(new SqlUserStore(database)),
    };
  });
  describeIdentityStoreContract(engine, async () => {
    const database = await migrated();
    await applyMigrations(database, [identitiesMigration]);
    return {
      store: new SqlIdentityStore(database),
      newUser: userMaker(new SqlUserStore(database)),
    };
  });
  describeJobStoreContract(engine, async () => {
    const database = await migrated();
    await applyMigrations(database, [jobTableMigration(contractJob)]);
    return {
      store: new SqlJobStore(database, contractJob),
      newUser: userMaker(new SqlUserStore(database)),
    };
  });
  describeUserStoreContract(engine, async () => new SqlUserStore(await migrated()));
  describeOutboxContract(engine, async (clock) => {
    const database = await open();
    await applyMigrations(database, outboxMigrations);
    return {
      outbox: new SqlOutbox(database, { clock }),
      writer: database,
      transaction: (work) => database.transaction(work),
    };
  });
  describeOutboundStoreContract(engine, async () => {
    const database = await open();
    await applyMigrations(database, [...outboxMigrations, ...outboundMigrations]);
    return {
      store: new SqlOutboundStore(database),
      writer: database,
      outbox: new SqlOutbox(database),
      transaction: (work) => database.transaction(work),
    };
  });
  describeOrganizationStoreContract(engine, async () => {
    const database = await migrated();
    // After accounts' tables, with the `name` an app adds to `users` for the members list.
    await applyMigrations(database, organizationMigrations);
    await database.execScript("ALTER TABLE users ADD COLUMN name TEXT");
    const users = new SqlUserStore(database, ["name"]);
    return {
      store: new SqlOrganizationStore(database, { memberNameColumn: "name" }),
      async newUser(email, name) {
        const created = await users.create({ email, passwordDigest: "", columns: { name } }, 0);
        if (!created.ok) throw new Error("created");
        return created.value.id;
      },
    };
  });
  describe(`SqlUserStore.findByApiKeyDigest on ${engine}`, () => {
    it("finds a key and its user in one statement, as the two stores would apart", async () => {
      const database = await migrated();
      await database.execScript("ALTER TABLE users ADD COLUMN name TEXT");
      const users = new SqlUserStore(database, ["name"]);
      const apiKeys = new SqlApiKeyStore(database);
      const created = await users.create(
        { email: "ada@example.com", passwordDigest: "d", columns: { name: "Ada" } },
        Date.UTC(2026, 0, 2, 3, 4, 5),
      );
      if (!created.ok) throw new Error("created");
      const key = await apiKeys.create({
        userId: created.value.id,
        name: "ci",
        digest: "a".repeat(64),
        createdAt: Date.UTC(2026, 0, 3),
      });
      await apiKeys.touchLastUsed(key.id, Date.UTC(2026, 0, 4), Date.UTC(2026, 0, 4));
      expect(await users.findByApiKeyDigest("a".repeat(64))).toEqual({
        user: await users.findById(created.value.id),
        key: await apiKeys.findByDigest("a".repeat(64)),
      });
      expect((await users.findByApiKeyDigest("a".repeat(64)))?.user.columns).toEqual({
        name: "Ada",
      });
      expect(await users.findByApiKeyDigest("b".repeat(64))).toBeUndefined();
      await apiKeys.deleteForUser(created.value.id, key.id);
      expect(await users.findByApiKeyDigest("a".repeat(64))).toBeUndefined();
    });

    it("finds nothing once the key's user is deleted", async () => {
      const database = await migrated();
      const users = new SqlUserStore(database);
      const created = await users.create({ email: "ada@example.com", passwordDigest: "" }, 0);
      if (!created.ok) throw new Error("created");
      const digest = "c".repeat(64);
      await new SqlApiKeyStore(database).create({
        userId: created.value.id,
        name: "ci",
        digest,
        createdAt: 0,
      });
      expect((await users.findByApiKeyDigest(digest))?.user.id).toBe(created.value.id);
      await users.delete(created.value.id);
      expect(await users.findByApiKeyDigest(digest)).toBeUndefined();
    });
  });
  describeAuditLogContract(engine, async () => new SqlAuditLog(await migrated()));
  describeEmailedTokenStoreContract(engine, async () => {
    const database = await migrated();
    return { store: new SqlEmailedTokenStore(database), users: new SqlUserStore(database) };
  });
  describeSecondFactorStoreContract(engine, async () => {
    const database = await migrated();
    return {
      store: new SqlSecondFactorStore(database),
      newUser: userMaker(new SqlUserStore(database)),
    };
  });
  describeEmailCodeStoreContract(engine, async () => {
    const database = await migrated();
    return {
      store: new SqlEmailCodeStore(database),
      newUser: userMaker(new SqlUserStore(database)),
    };
  });
  describeEmailChangeStoreContract(engine, async () => {
    const database = await migrated();
    return {
      store: new SqlEmailChangeStore(database),
      newUser: userMaker(new SqlUserStore(database)),
    };
  });
  describePasskeyStoreContract(engine, async () => {
    const database = await migrated();
    return {
      store: new SqlPasskeyStore(database),
      newUser: userMaker(new SqlUserStore(database)),
    };
  });
  describeTrackedSessionStoreContract(engine, async () => {
    const database = await migrated();
    return {
      store: new SqlTrackedSessionStore(database),
      newUser: userMaker(new SqlUserStore(database)),
    };
  });
}
