import { MemoryOutbox } from "@tessera/outbox";
import { SqlOutbox } from "@tessera/outbox/sql";
import { describeOutboxContract } from "@tessera/outbox/testing";
import type { SqlDatabase } from "@tessera/sql";
import { postgresSchema, sqliteFile } from "./support/databases.js";

describeOutboxContract("memory", async (clock) => {
  const outbox = new MemoryOutbox({ clock });
  return { outbox, writer: outbox, transaction: (work) => outbox.transaction(work) };
});

const onSql = (database: SqlDatabase, clock: () => number) => ({
  outbox: new SqlOutbox(database, { clock }),
  writer: database,
  transaction: <T>(work: (writer: SqlDatabase) => Promise<T>) => database.transaction(work),
});

describeOutboxContract("SQLite (better-sqlite3 file)", async (clock) =>
  onSql((await sqliteFile()).database, clock),
);

describeOutboxContract("PostgreSQL (pg)", async (clock) =>
  onSql((await postgresSchema()).database, clock),
);
