// Record stores that send the events their model declares (`defineModel`'s `events`), in the
// write's own transaction, on a real SQLite file and a real PostgreSQL server: the event row
// exists exactly when the change does.
import { usersMigration } from "@tessera/accounts/sql";
import { defineModel, encodeRecord, type Model } from "@tessera/fields";
import type { OutboundWebhooks } from "@tessera/outbound";
import type { SqlDatabase } from "@tessera/sql";
import { describe, expect, it } from "vitest";
import type { RecordEventSink } from "../src/index.js";
import { recordMigration, SqlRecordStore } from "../src/sql.js";
import { sqlEngines } from "./support/sql-engines.js";

const note = defineModel(
  "note",
  "title:string body:text? pinned:bool tags:json? rating:float? due_on:date? slug:string?^ lock_version:integer".split(
    " ",
  ),
  { events: true },
);
const memo = defineModel("memo", ["title:string"], { events: ["created"] });
const tag = defineModel("tag", ["name:string"]);
const label = defineModel("label", ["public_id:token", "name:string", "body:text?"], {
  events: true,
});

const T0 = Date.UTC(2025, 0, 1, 8, 0, 0);
const T1 = T0 + 60_000;

// OutboundWebhooks is a sink as it is: this line does not compile otherwise.
type OutboundIsASink = OutboundWebhooks<SqlDatabase> extends RecordEventSink ? true : never;
const outboundIsASink: OutboundIsASink = true;

/** A sink that writes each event to a table through the transaction it is given. */
function tableSink(options: { refuse?: boolean } = {}) {
  const types: string[] = [];
  const sink: RecordEventSink = {
    async send(transaction, ownerId, type, data) {
      types.push(type);
      await transaction.run(
        `INSERT INTO "record_events" ("position", "owner_id", "type", "data") VALUES (?, ?, ?, ?)`,
        [types.length, ownerId, type, JSON.stringify(data())],
      );
      // After the event row: what the rollback takes back is the write and its event alike.
      if (options.refuse) throw new Error("the sink refused the event");
    },
  };
  return { sink, types };
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

const EVENTS_TABLE = {
  id: "0199_record_events",
  sql: `CREATE TABLE "record_events" ("position" INTEGER NOT NULL, "owner_id" INTEGER NOT NULL, "type" TEXT NOT NULL, "data" TEXT NOT NULL)`,
};

for (const engine of sqlEngines()) {
  describe(`record events on ${engine.name}`, () => {
    async function setUp() {
      const database = await engine.migrated([
        usersMigration,
        recordMigration(note, "0100_notes"),
        recordMigration(memo, "0101_memos"),
        recordMigration(tag, "0102_tags"),
        recordMigration(label, "0103_labels"),
        EVENTS_TABLE,
      ]);
      const owners: number[] = [];
      for (const email of ["ada@example.com", "bob@example.com"]) {
        const row = await database.get<{ id: number }>(
          `INSERT INTO "users" ("email", "created_at", "updated_at") VALUES (?, '2025-01-01 00:00:00', '2025-01-01 00:00:00') RETURNING "id"`,
          [email],
        );
        owners.push(Number(row!.id));
      }
      const { counted, counter } = countingTransactions(database);
      const events = async () =>
        (
          await database.all<{ owner_id: number; type: string; data: string }>(
            `SELECT "owner_id", "type", "data" FROM "record_events" ORDER BY "position"`,
          )
        ).map((row) => ({
          ownerId: Number(row.owner_id),
          type: row.type,
          data: JSON.parse(row.data),
        }));
      const count = async (table: string) =>
        Number((await database.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "${table}"`))!.n);
      return { database: counted, counter, events, count, ada: owners[0]!, bob: owners[1]! };
    }

    it("sends note.created, note.updated and note.deleted with the record as the JSON API shows it, each write in one transaction", async () => {
      const { database, counter, events, ada } = await setUp();
      const { sink } = tableSink();
      const notes = new SqlRecordStore(database, note, { events: sink });

      const created = await notes.insert(
        ada,
        { title: "Hello", body: "World", pinned: 1, tags: '{"a":[1,2]}', rating: 4.5 },
        T0,
      );
      if (!created.ok) throw new Error(created.reason);
      const id = Number(created.row.id);
      const updated = await notes.update(
        ada,
        { id },
        { values: { title: "Hello again", pinned: 0 }, lockVersion: 0, now: T1 },
      );
      if (!updated.ok) throw new Error(updated.reason);
      const deleted = await notes.delete(ada, { id });

      const asCreated = {
        id,
        user_id: ada,
        title: "Hello",
        body: "World",
        pinned: true,
        tags: { a: [1, 2] },
        rating: 4.5,
        due_on: null,
        slug: null,
        lock_version: 0,
        created_at: "2025-01-01 08:00:00",
        updated_at: "2025-01-01 08:00:00",
      };
      const asUpdated = {
        ...asCreated,
        title: "Hello again",
        pinned: false,
        lock_version: 1,
        updated_at: "2025-01-01 08:01:00",
      };
      expect(await events()).toEqual([
        { ownerId: ada, type: "note.created", data: asCreated },
        { ownerId: ada, type: "note.updated", data: asUpdated },
        // A delete tells the record as it was.
        { ownerId: ada, type: "note.deleted", data: asUpdated },
      ]);
      // The data is encodeRecord's, exactly.
      expect(asCreated).toEqual(encodeRecord(note.fields, created.row));
      expect(deleted.row && encodeRecord(note.fields, deleted.row)).toEqual(asUpdated);
      expect(counter.transactions).toBe(3);
    });

    it("rolls a write back with its event when the sink throws", async () => {
      const { database, events, count, ada } = await setUp();
      const kept = new SqlRecordStore(database, note, { events: tableSink().sink });
      const refusing = new SqlRecordStore(database, note, {
        events: tableSink({ refuse: true }).sink,
      });
      const created = await kept.insert(ada, { title: "Kept", pinned: 0 }, T0);
      if (!created.ok) throw new Error(created.reason);
      const key = { id: Number(created.row.id) };

      await expect(refusing.insert(ada, { title: "Lost", pinned: 0 }, T0)).rejects.toThrow(
        "the sink refused the event",
      );
      await expect(
        refusing.update(ada, key, { values: { title: "Changed" }, now: T1 }),
      ).rejects.toThrow("the sink refused the event");
      await expect(refusing.delete(ada, key)).rejects.toThrow("the sink refused the event");

      expect(await count("notes")).toBe(1);
      expect(await kept.find(ada, key)).toMatchObject({ title: "Kept", lock_version: 0 });
      expect((await events()).map((event) => event.type)).toEqual(["note.created"]);
    });

    it("sends nothing for a refused write, and the store goes on working after it", async () => {
      const { database, events, count, ada, bob } = await setUp();
      const { sink, types } = tableSink();
      const notes = new SqlRecordStore(database, note, { events: sink });
      const first = await notes.insert(ada, { title: "First", slug: "first", pinned: 0 }, T0);
      if (!first.ok) throw new Error(first.reason);
      const key = { id: Number(first.row.id) };

      // A unique index refuses it: on PostgreSQL that statement also aborted the transaction.
      expect(await notes.insert(ada, { title: "Again", slug: "first", pinned: 0 }, T0)).toEqual({
        ok: false,
        reason: "taken",
        columns: ["slug"],
      });
      expect(
        await notes.update(ada, key, { values: { title: "Old" }, lockVersion: 7, now: T1 }),
      ).toEqual({ ok: false, reason: "stale" });
      expect(await notes.update(bob, key, { values: { title: "Bob's" }, now: T1 })).toEqual({
        ok: false,
        reason: "not-found",
      });
      expect(await notes.delete(bob, key)).toEqual({ row: undefined, fileKeys: [] });
      expect(await notes.delete(ada, { id: key.id + 100 })).toEqual({
        row: undefined,
        fileKeys: [],
      });

      const second = await notes.insert(ada, { title: "Second", slug: "second", pinned: 0 }, T1);
      expect(second.ok).toBe(true);
      expect(await count("notes")).toBe(2);
      expect(types).toEqual(["note.created", "note.created"]);
      expect((await events()).map((event) => event.data.title)).toEqual(["First", "Second"]);
    });

    it("sends only the declared actions: a model with events: ['created'] updates and deletes as before", async () => {
      const { database, counter, events, ada } = await setUp();
      const memos = new SqlRecordStore(database, memo, { events: tableSink().sink });
      const created = await memos.insert(ada, { title: "Memo" }, T0);
      if (!created.ok) throw new Error(created.reason);
      const key = { id: Number(created.row.id) };
      expect((await memos.update(ada, key, { values: { title: "Memo 2" }, now: T1 })).ok).toBe(
        true,
      );
      expect((await memos.delete(ada, key)).row).toMatchObject({ title: "Memo 2" });

      expect(await events()).toEqual([
        { ownerId: ada, type: "memo.created", data: encodeRecord(memo.fields, created.row) },
      ]);
      expect(counter.transactions).toBe(1);
    });

    it("sends none and opens no transaction for a model without events, or without a sink", async () => {
      const { database, counter, events, ada } = await setUp();
      const { sink, types } = tableSink();
      const stores: Array<[Model, SqlRecordStore]> = [
        [tag, new SqlRecordStore(database, tag, { events: sink })],
        [note, new SqlRecordStore(database, note)],
      ];
      for (const [model, store] of stores) {
        const values = model === tag ? { name: "x" } : { title: "x", pinned: 0 };
        const created = await store.insert(ada, values, T0);
        if (!created.ok) throw new Error(created.reason);
        const key = { id: Number(created.row.id) };
        expect((await store.update(ada, key, { values, now: T1 })).ok).toBe(true);
        expect((await store.delete(ada, key)).row).toBeDefined();
      }
      expect(types).toEqual([]);
      expect(await events()).toEqual([]);
      expect(counter.transactions).toBe(0);
    });

    it("sends { id, truncated: true } for a record over 256 KiB as JSON, and still writes it", async () => {
      const { database, events, ada } = await setUp();
      const body = "é".repeat(140_000); // 280,000 bytes in UTF-8: over, though fewer characters
      const notes = new SqlRecordStore(database, note, { events: tableSink().sink });
      const labels = new SqlRecordStore(database, label, { events: tableSink().sink });
      const created = await notes.insert(ada, { title: "Long", body, pinned: 0 }, T0);
      if (!created.ok) throw new Error(created.reason);
      const labelled = await labels.insert(
        ada,
        { public_id: "lbl_0123456789abcdefgh", name: "Long", body },
        T0,
      );
      if (!labelled.ok) throw new Error(labelled.reason);

      expect(created.row.body).toBe(body);
      expect((await events()).map(({ type, data }) => ({ type, data }))).toEqual([
        { type: "note.created", data: { id: Number(created.row.id), truncated: true } },
        // A model with a public id is named by it, as its routes name it.
        {
          type: "label.created",
          data: { public_id: "lbl_0123456789abcdefgh", truncated: true },
        },
      ]);
    });
  });
}

it("checks at construction that events is a sink", () => {
  const database = {} as SqlDatabase;
  expect(
    () => new SqlRecordStore(database, note, { events: {} as unknown as RecordEventSink }),
  ).toThrow(/SqlRecordStore.*events.*send/);
  expect(outboundIsASink).toBe(true);
});
