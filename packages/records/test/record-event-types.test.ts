// The event catalog the models' `events` declare, and the data it describes: the schemas
// validate (Ajv, draft 2020-12, formats on) what a real store writes and the truncated shape.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { usersMigration } from "@tessera/accounts/sql";
import { decodeJsonCreate, defineModel, encodeRecord } from "@tessera/fields";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import {
  MAXIMUM_RECORD_EVENT_BYTES,
  openApiDocument,
  type RecordEventSink,
  recordEventData,
  recordEventTypes,
} from "../src/index.js";
import { recordMigration, SqlRecordStore } from "../src/sql.js";

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
addFormats.default(ajv);

const entry = defineModel(
  "entry",
  "title:string body:text? pinned:bool views:integer? rating:float? due_on:date? starts_at:datetime? reminder_at:time? price:decimal? external_ref:uuid? tags:json? status:enum:draft,done cover:attachment? lock_version:integer".split(
    " ",
  ),
  { events: true },
);
const order = defineModel("order_line", ["name:string"], { events: ["deleted"] });
const badge = defineModel("badge", ["public_id:token", "name:string"], {
  events: ["created", "updated"],
});
const quiet = defineModel("quiet", ["name:string"]);

const folder = mkdtempSync(join(tmpdir(), "tessera-record-event-types-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("recordEventTypes", () => {
  it("lists one type per declared action of each model, with a description", () => {
    const types = recordEventTypes([entry, order, quiet, badge]);
    expect(types.map(({ name, description }) => ({ name, description }))).toEqual([
      { name: "entry.created", description: "An entry was created." },
      { name: "entry.updated", description: "An entry was updated." },
      { name: "entry.deleted", description: "An entry was deleted." },
      { name: "order_line.deleted", description: "An order line was deleted." },
      { name: "badge.created", description: "A badge was created." },
      { name: "badge.updated", description: "A badge was updated." },
    ]);
    expect(recordEventTypes([quiet])).toEqual([]);
  });

  it("describes the record with the OpenAPI document's own record schema, self-contained", () => {
    const [created] = recordEventTypes([entry]);
    const document = openApiDocument({ models: [entry], info: { title: "t", version: "1" } });
    const schemas = document.components.schemas as Record<string, unknown>;
    expect((created!.schema.oneOf as unknown[])[0]).toEqual(schemas.Entry);
    expect(created!.schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(JSON.stringify(recordEventTypes([entry, order, badge]))).not.toContain("$ref");
  });

  it("validates what a real store sends, whole and truncated, and refuses what it never sends", async () => {
    const database = openSqliteFile(join(folder, "entries.db"));
    onTestFinished(() => database.close());
    await applyMigrations(database, [usersMigration, recordMigration(entry, "0100_entries")]);
    const user = await database.get<{ id: number }>(
      `INSERT INTO "users" ("email", "created_at", "updated_at") VALUES ('ada@example.com', '2025-01-01 00:00:00', '2025-01-01 00:00:00') RETURNING "id"`,
    );
    const sent: Array<{ type: string; data: Readonly<Record<string, unknown>> }> = [];
    const sink: RecordEventSink = {
      async send(_transaction, _ownerId, type, data) {
        sent.push({ type, data: data() });
      },
    };
    const store = new SqlRecordStore(database, entry, { events: sink });
    const decoded = decodeJsonCreate(entry.fields, {
      title: "Every type",
      body: "Some text",
      pinned: true,
      views: 12,
      rating: 4.25,
      due_on: "2025-02-28",
      starts_at: "2025-02-28T10:30",
      reminder_at: "09:15",
      price: "19.99",
      external_ref: "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b",
      tags: { nested: [1, "two", null, { ok: true }] },
      status: "done",
    });
    if (!decoded.ok) throw new Error(decoded.reason);
    const values = {
      ...decoded.value.values,
      cover_key: "K".repeat(43),
      cover_filename: "cover.png",
      cover_content_type: "image/png",
      cover_size: 1234,
    };
    const created = await store.insert(user!.id, values, Date.UTC(2025, 0, 1));
    if (!created.ok) throw new Error(created.reason);
    const key = { id: Number(created.row.id) };
    // Every optional column cleared: nulls must validate too.
    const cleared = Object.fromEntries(
      ["body", "views", "rating", "due_on", "starts_at", "reminder_at", "price", "external_ref"]
        .concat(["tags", "cover_key", "cover_filename", "cover_content_type", "cover_size"])
        .map((column) => [column, null]),
    );
    expect(
      (await store.update(user!.id, key, { values: cleared, now: Date.UTC(2025, 0, 2) })).ok,
    ).toBe(true);
    expect(
      (
        await store.update(user!.id, key, {
          values: { body: "x".repeat(MAXIMUM_RECORD_EVENT_BYTES) },
          now: Date.UTC(2025, 0, 3),
        })
      ).ok,
    ).toBe(true);
    expect((await store.delete(user!.id, key)).row).toBeDefined();

    expect(sent.map((event) => event.type)).toEqual([
      "entry.created",
      "entry.updated",
      "entry.updated",
      "entry.deleted",
    ]);
    expect(sent[0]!.data).toEqual(encodeRecord(entry.fields, created.row));
    expect(sent[0]!.data).toMatchObject({
      pinned: true,
      tags: { nested: [1, "two", null, { ok: true }] },
      cover_size: 1234,
    });
    expect(sent[1]!.data).toMatchObject({ tags: null, cover_key: null });
    expect(sent[2]!.data).toEqual({ id: key.id, truncated: true });
    expect(sent[3]!.data).toEqual({ id: key.id, truncated: true });

    const schemaOf = Object.fromEntries(
      recordEventTypes([entry]).map((type) => [type.name, ajv.compile(type.schema)]),
    );
    for (const event of sent) {
      const validate = schemaOf[event.type]!;
      expect(validate(event.data), JSON.stringify(validate.errors)).toBe(true);
    }
    const validate = schemaOf["entry.created"]!;
    const record = sent[0]!.data;
    const { title: _, ...withoutTitle } = record;
    for (const wrong of [
      withoutTitle,
      { ...record, pinned: 1 },
      { ...record, status: "gone" },
      { ...record, extra: 1 },
      { id: key.id, truncated: false },
      { id: key.id },
      { id: key.id, truncated: true, title: "x" },
    ]) {
      expect(validate(wrong), JSON.stringify(wrong)).toBe(false);
    }
  });

  it("names a truncated record of a model with a public id by its public id", () => {
    const [created] = recordEventTypes([badge]);
    const validate = ajv.compile(created!.schema);
    const row = {
      id: 7,
      user_id: 1,
      public_id: "abcdefghijklmnopqrstuv",
      name: "n".repeat(MAXIMUM_RECORD_EVENT_BYTES),
      created_at: "2025-01-01 00:00:00",
      updated_at: "2025-01-01 00:00:00",
    };
    const data = recordEventData(badge, row);
    expect(data).toEqual({ public_id: "abcdefghijklmnopqrstuv", truncated: true });
    expect(validate(data)).toBe(true);
    expect(validate({ id: 7, truncated: true })).toBe(false);
  });
});

describe("recordEventData", () => {
  it("sends a record of exactly 262,144 bytes as JSON whole, and one byte more truncated", () => {
    expect(MAXIMUM_RECORD_EVENT_BYTES).toBe(262_144);
    const rowWithTitle = (title: string) => ({
      id: 1,
      user_id: 1,
      name: title,
      created_at: "2025-01-01 00:00:00",
      updated_at: "2025-01-01 00:00:00",
    });
    const empty = JSON.stringify(encodeRecord(order.fields, rowWithTitle(""))).length;
    // "é" is two bytes in UTF-8: the limit counts bytes, not characters.
    const fill = MAXIMUM_RECORD_EVENT_BYTES - empty;
    const exact = rowWithTitle("é".repeat(fill / 2) + (fill % 2 ? "e" : ""));
    expect(new TextEncoder().encode(JSON.stringify(recordEventData(order, exact))).length).toBe(
      MAXIMUM_RECORD_EVENT_BYTES,
    );
    expect(recordEventData(order, exact)).toEqual(encodeRecord(order.fields, exact));
    const over = rowWithTitle(`${exact.name}e`);
    expect(recordEventData(order, over)).toEqual({ id: 1, truncated: true });
  });
});
