// The driver's contract and the store contracts whose writes use transactions (records, the
// outbox, outbound webhooks), on a SQLite file opened with groupCommit: as test/sql-stores opens
// SQLite, with the option on.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountMigrations, SqlUserStore } from "@tessera/accounts/sql";
import { outboundMigrations, SqlOutboundStore } from "@tessera/outbound/sql";
import { describeOutboundStoreContract } from "@tessera/outbound/testing";
import { outboxMigrations, SqlOutbox } from "@tessera/outbox/sql";
import { describeOutboxContract } from "@tessera/outbox/testing";
import { recordMigration, SqlRecordStore } from "@tessera/records/sql";
import { contractModels, describeRecordStoreContract } from "@tessera/records/testing";
import { applyMigrations, type SqlDatabase } from "@tessera/sql";
import { afterAll, onTestFinished } from "vitest";
import { describeSqlDriverContract } from "../../sql/test/driver.contract.js";
import { openSqliteFile } from "../src/better-sqlite3.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-group-commit-contracts-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const ENGINE = "SQLite with groupCommit";

/** A new file opened with group commit, closed when the test ends. */
function openFile(path = join(folder, `${crypto.randomUUID()}.db`)) {
  const database = openSqliteFile(path, { groupCommit: true });
  onTestFinished(() => database.close());
  return database;
}

describeSqlDriverContract(ENGINE, async () => {
  const path = join(folder, `${crypto.randomUUID()}.db`);
  return { database: openFile(path), second: async () => openFile(path) };
});

describeRecordStoreContract(ENGINE, async () => {
  const database = openFile();
  await applyMigrations(database, [
    ...accountMigrations,
    ...Object.values(contractModels).map((model, index) =>
      recordMigration(model, `090${index}_contract_${model.table}`),
    ),
  ]);
  const users = new SqlUserStore(database);
  return {
    store: (model) => new SqlRecordStore(database, model),
    async newUser() {
      const created = await users.create(
        { email: `${crypto.randomUUID()}@example.com`, passwordDigest: "" },
        0,
      );
      if (!created.ok) throw new Error("created");
      return created.value.id;
    },
  };
});

describeOutboxContract(ENGINE, async (clock) => {
  const database = openFile();
  await applyMigrations(database, outboxMigrations);
  return {
    outbox: new SqlOutbox(database, { clock }),
    writer: database,
    transaction: (work) => database.transaction(work),
  };
});

/** The outbound store on a migrated file, with its subscriptions kept in memory or not. */
async function outboundOn(cacheSubscriptions: boolean) {
  const database = openFile();
  await applyMigrations(database, [...outboxMigrations, ...outboundMigrations]);
  return {
    store: new SqlOutboundStore(database, { cacheSubscriptions }),
    writer: database,
    outbox: new SqlOutbox(database),
    transaction: <T>(work: (writer: SqlDatabase) => Promise<T>) => database.transaction(work),
  };
}

describeOutboundStoreContract(ENGINE, () => outboundOn(false));
describeOutboundStoreContract(`${ENGINE}, subscriptions cached`, () => outboundOn(true));
