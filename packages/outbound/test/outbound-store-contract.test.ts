import { MemoryOutboundStore } from "@tessera/outbound";
import { SqlOutboundStore } from "@tessera/outbound/sql";
import { describeOutboundStoreContract } from "@tessera/outbound/testing";
import { MemoryOutbox } from "@tessera/outbox";
import { SqlOutbox } from "@tessera/outbox/sql";
import type { SqlDatabase } from "@tessera/sql";
import { postgresSchema, sqliteFile } from "./support/databases.js";

describeOutboundStoreContract("memory", async () => {
  const outbox = new MemoryOutbox();
  return { store: new MemoryOutboundStore({ outbox }), writer: outbox, outbox };
});

const onSql = (database: SqlDatabase) => ({
  store: new SqlOutboundStore(database),
  writer: database,
  outbox: new SqlOutbox(database),
  transaction: <T>(work: (writer: SqlDatabase) => Promise<T>) => database.transaction(work),
});

describeOutboundStoreContract("SQLite (better-sqlite3 file)", async () =>
  onSql((await sqliteFile()).database),
);

describeOutboundStoreContract("PostgreSQL (pg)", async () =>
  onSql((await postgresSchema()).database),
);
