// A sink that can say an event goes nowhere (`unsubscribed`): the write then runs as it would
// without events, with no transaction, and the sink is asked after it whether its word held;
// when it did not, the event is sent then, in a transaction of its own. On a real SQLite file
// and a real PostgreSQL server.
import { usersMigration } from "@tessera/accounts/sql";
import { defineModel, encodeRecord } from "@tessera/fields";
import type { SqlDatabase } from "@tessera/sql";
import { describe, expect, it } from "vitest";
import type { RecordEventSink } from "../src/index.js";
import { recordMigration, SqlRecordStore } from "../src/sql.js";
import { sqlEngines } from "./support/sql-engines.js";

const note = defineModel("note", "title:string slug:string?^ lock_version:integer".split(" "), {
  events: true,
});
const T0 = Date.UTC(2025, 0, 1, 8, 0, 0);

/**
 * A sink whose word is `holds` (undefined: it gives none), counting the words asked for and the
 * checks made, and sending each event to a list through the transaction it is given.
 */
function wordSink(holds: boolean | undefined) {
  const asked: { database: SqlDatabase; ownerId: number; type: string }[] = [];
  const sent: { inTransaction: boolean; ownerId: number; type: string; data: unknown }[] = [];
  let checks = 0;
  let database: SqlDatabase | undefined;
  const sink: RecordEventSink = {
    async send(transaction, ownerId, type, data) {
      sent.push({ inTransaction: transaction !== database, ownerId, type, data: data() });
    },
    async unsubscribed(on, ownerId, type) {
      database = on;
      asked.push({ database: on, ownerId, type });
      if (holds === undefined) return undefined;
      return {
        stillUnsubscribed: async () => {
          checks++;
          return holds;
        },
      };
    },
  };
  return { sink, asked, sent, checks: () => checks };
}

/** The database with every `transaction` call counted. */
function countingTransactions(database: SqlDatabase) {
  const counter = { transactions: 0 };
  const counted: SqlDatabase = {
    dialect: database.dialect,
    run: (sql, params) => database.run(sql, params),
    get: (sql, params) => database.get(sql, params),
    all: (sql, params) => database.all(sql, params),
    execScript: (sql) => database.execScript(sql),
    transaction: (work) => {
      counter.transactions++;
      return database.transaction(work);
    },
  };
  return { counted, counter };
}

for (const engine of sqlEngines()) {
  describe(`record events a sink says go nowhere, on ${engine.name}`, () => {
    async function setUp(holds: boolean | undefined) {
      const database = await engine.migrated([usersMigration, recordMigration(note, "0100_notes")]);
      const row = await database.get<{ id: number }>(
        `INSERT INTO "users" ("email", "created_at", "updated_at") VALUES ('ada@example.com', '2025-01-01 00:00:00', '2025-01-01 00:00:00') RETURNING "id"`,
      );
      const { counted, counter } = countingTransactions(database);
      const events = wordSink(holds);
      const notes = new SqlRecordStore(counted, note, { events: events.sink });
      return { database: counted, counter, notes, events, ada: Number(row!.id) };
    }

    it("writes without a transaction and sends nothing while the word holds", async () => {
      const { database, counter, notes, events, ada } = await setUp(true);
      const created = await notes.insert(ada, { title: "Hello" }, T0);
      if (!created.ok) throw new Error(created.reason);
      const key = { id: Number(created.row.id) };
      const updated = await notes.update(ada, key, { values: { title: "Again" }, now: T0 });
      expect(updated).toMatchObject({ ok: true, row: { title: "Again", lock_version: 1 } });
      expect((await notes.delete(ada, key)).row).toMatchObject({ title: "Again" });

      expect(counter.transactions).toBe(0);
      expect(events.sent).toEqual([]);
      expect(events.checks()).toBe(3);
      expect(events.asked).toEqual(
        ["note.created", "note.updated", "note.deleted"].map((type) => ({
          database,
          ownerId: ada,
          type,
        })),
      );
    });

    it("sends the event after the write, in a transaction of its own, when the word no longer holds", async () => {
      const { counter, notes, events, ada } = await setUp(false);
      const created = await notes.insert(ada, { title: "Hello" }, T0);
      if (!created.ok) throw new Error(created.reason);
      const key = { id: Number(created.row.id) };
      const updated = await notes.update(ada, key, { values: { title: "Again" }, now: T0 });
      if (!updated.ok) throw new Error(updated.reason);
      const deleted = await notes.delete(ada, key);

      expect(events.sent).toEqual([
        {
          inTransaction: true,
          ownerId: ada,
          type: "note.created",
          data: encodeRecord(note.fields, created.row),
        },
        {
          inTransaction: true,
          ownerId: ada,
          type: "note.updated",
          data: encodeRecord(note.fields, updated.row),
        },
        {
          inTransaction: true,
          ownerId: ada,
          type: "note.deleted",
          data: encodeRecord(note.fields, deleted.row!),
        },
      ]);
      expect(counter.transactions).toBe(3);
    });

    it("asks nothing after a refused write, and sends nothing for it", async () => {
      const { counter, notes, events, ada } = await setUp(false);
      const first = await notes.insert(ada, { title: "First", slug: "first" }, T0);
      if (!first.ok) throw new Error(first.reason);
      const key = { id: Number(first.row.id) };
      const checksAfterFirst = events.checks();

      expect(await notes.insert(ada, { title: "Again", slug: "first" }, T0)).toEqual({
        ok: false,
        reason: "taken",
        columns: ["slug"],
      });
      expect(
        await notes.update(ada, key, { values: { title: "Old" }, lockVersion: 7, now: T0 }),
      ).toEqual({ ok: false, reason: "stale" });
      expect(await notes.delete(ada + 1, key)).toEqual({ row: undefined, fileKeys: [] });

      expect(events.checks()).toBe(checksAfterFirst);
      expect(events.sent.map((event) => event.type)).toEqual(["note.created"]);
      expect(counter.transactions).toBe(1);
    });

    it("writes and sends in one transaction when the sink gives no word", async () => {
      const { counter, notes, events, ada } = await setUp(undefined);
      const created = await notes.insert(ada, { title: "Hello" }, T0);
      if (!created.ok) throw new Error(created.reason);
      expect(events.sent).toEqual([
        {
          inTransaction: true,
          ownerId: ada,
          type: "note.created",
          data: encodeRecord(note.fields, created.row),
        },
      ]);
      expect(events.checks()).toBe(0);
      expect(counter.transactions).toBe(1);
    });
  });
}
