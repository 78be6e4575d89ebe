// The store contracts of the packages, run against their memory store and the SQLite one
// (docs/stores.md lists them).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryEmailedTokenStore, MemoryUserStore } from "@tessera/accounts";
import { MemoryApiKeyStore } from "@tessera/bearer";
import { MemoryJobStore } from "@tessera/jobs";
import { MemoryIdentityStore } from "@tessera/oauth";
import { MemoryRateLimitStore } from "@tessera/ratelimit";
import { MemoryRecordStore, MemoryRecordTables, recordMigration } from "@tessera/records";
import { MemoryWebhookEventStore } from "@tessera/webhooks";
import { afterAll } from "vitest";
import { describeEmailedTokenStoreContract } from "../../accounts/test/contracts/emailed-token-store.contract.js";
import { describeUserStoreContract } from "../../accounts/test/contracts/user-store.contract.js";
import { describeApiKeyStoreContract } from "../../bearer/test/contracts/api-key-store.contract.js";
import {
  contractJob,
  describeJobStoreContract,
} from "../../jobs/test/contracts/job-store.contract.js";
import { describeIdentityStoreContract } from "../../oauth/test/contracts/identity-store.contract.js";
import { describeRateLimitStoreContract } from "../../ratelimit/test/contracts/rate-limit-store.contract.js";
import {
  contractModels,
  describeRecordStoreContract,
} from "../../records/test/contracts/record-store.contract.js";
import { describeWebhookEventStoreContract } from "../../webhooks/test/contracts/webhook-event-store.contract.js";
import { openSqliteFile } from "../src/better-sqlite3.js";
import {
  accountMigrations,
  applyMigrations,
  identitiesMigration,
  jobTableMigration,
  SqliteApiKeyStore,
  SqliteEmailedTokenStore,
  SqliteIdentityStore,
  SqliteJobStore,
  SqliteRateLimitStore,
  SqliteRecordStore,
  SqliteUserStore,
  SqliteWebhookEventStore,
  webhookMigrations,
} from "../src/index.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-store-contracts-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function sqliteFile() {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, [...accountMigrations, ...webhookMigrations]);
  return database;
}

/** Makes users, so keys have an owner to belong to (the SQL table requires one). */
function userMaker(users: MemoryUserStore | SqliteUserStore) {
  return async () => {
    const created = await users.create(
      { email: `${crypto.randomUUID()}@example.com`, passwordDigest: "" },
      0,
    );
    if (!created.ok) throw new Error("created");
    return created.value.id;
  };
}

describeWebhookEventStoreContract("memory", async () => new MemoryWebhookEventStore());
describeWebhookEventStoreContract(
  "SQLite",
  async () => new SqliteWebhookEventStore(await sqliteFile()),
);

describeRateLimitStoreContract("memory", async () => new MemoryRateLimitStore());
describeRateLimitStoreContract("SQLite", async () => new SqliteRateLimitStore(await sqliteFile()));

describeApiKeyStoreContract("memory", async () => ({
  store: new MemoryApiKeyStore(),
  newUser: userMaker(new MemoryUserStore()),
}));
describeApiKeyStoreContract("SQLite", async () => {
  const database = await sqliteFile();
  return {
    store: new SqliteApiKeyStore(database),
    newUser: userMaker(new SqliteUserStore(database)),
  };
});

describeRecordStoreContract("memory", async () => {
  const tables = new MemoryRecordTables();
  let users = 0;
  return { store: (model) => new MemoryRecordStore(tables, model), newUser: async () => ++users };
});
describeRecordStoreContract("SQLite", async () => {
  const database = await sqliteFile();
  await applyMigrations(
    database,
    Object.values(contractModels).map((model, index) =>
      recordMigration(model, `090${index}_contract_${model.table}`),
    ),
  );
  return {
    store: (model) => new SqliteRecordStore(database, model),
    newUser: userMaker(new SqliteUserStore(database)),
  };
});

describeIdentityStoreContract("memory", async () => {
  let users = 0;
  return { store: new MemoryIdentityStore(), newUser: async () => ++users };
});
describeIdentityStoreContract("SQLite", async () => {
  const database = await sqliteFile();
  await applyMigrations(database, [identitiesMigration]);
  return {
    store: new SqliteIdentityStore(database),
    newUser: userMaker(new SqliteUserStore(database)),
  };
});

describeJobStoreContract("memory", async () => {
  let users = 0;
  return { store: new MemoryJobStore(contractJob), newUser: async () => ++users };
});
describeJobStoreContract("SQLite", async () => {
  const database = await sqliteFile();
  await applyMigrations(database, [jobTableMigration(contractJob)]);
  return {
    store: new SqliteJobStore(database, contractJob),
    newUser: userMaker(new SqliteUserStore(database)),
  };
});

describeUserStoreContract("memory", async () => new MemoryUserStore());
describeUserStoreContract("SQLite", async () => new SqliteUserStore(await sqliteFile()));

describeEmailedTokenStoreContract("memory", async () => ({
  store: new MemoryEmailedTokenStore(),
  users: new MemoryUserStore(),
}));
describeEmailedTokenStoreContract("SQLite", async () => {
  const database = await sqliteFile();
  return { store: new SqliteEmailedTokenStore(database), users: new SqliteUserStore(database) };
});
