import { defineModel } from "@tessera/fields";
import { routeRequests } from "@tessera/http";
import { createSessionCookies } from "@tessera/session";
import { describe, expect, expectTypeOf, it } from "vitest";
import { htmlRecordRoutes } from "../src/html.js";
import {
  type AfterHookName,
  jsonRecordRoutes,
  MemoryRecordStore,
  MemoryRecordTables,
  type RecordHooks,
} from "../src/index.js";
import { ADA, ownersRequest, T0, testAuthentication } from "./fixtures.js";

const noteModel = defineModel("note", ["title:string", "pinned:bool", "word_count:integer?"]);

const sessions = createSessionCookies({
  appName: "records_hooks_test",
  secrets: { current: "a test secret key base that is long enough to use" },
});

/** The note API and pages on a memory store, with `hooks`; hook failures are collected. */
function mounted(hooks: RecordHooks<typeof noteModel>) {
  const store = new MemoryRecordStore(new MemoryRecordTables(), noteModel);
  const hookErrors: [string, AfterHookName][] = [];
  const options = {
    model: noteModel,
    store,
    clock: () => T0,
    hooks,
    onHookError: (error: unknown, hook: AfterHookName) => {
      hookErrors.push([(error as Error).message, hook]);
    },
  };
  const json = routeRequests(jsonRecordRoutes({ ...options, authenticate: testAuthentication }));
  const html = routeRequests(
    htmlRecordRoutes({
      ...options,
      layout: ({ mainHtml }) => mainHtml,
      sessions,
      authenticate: testAuthentication,
    }),
  );

  async function api(method: string, path: string, body?: unknown) {
    const init: RequestInit =
      body === undefined
        ? { method }
        : { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    const response = await json(ownersRequest(ADA, `http://app.test${path}`, init));
    if (!response) throw new Error(`no route for ${method} ${path}`);
    return {
      status: response.status,
      body: response.status === 204 ? null : await response.json(),
    };
  }

  async function form(path: string, fields: Record<string, string>) {
    const session = await sessions.read(new Request("http://app.test/"));
    const request = ownersRequest(ADA, `http://app.test${path}`, {
      method: "POST",
      body: new URLSearchParams(fields),
    });
    const response = await html(request, { session });
    if (!response) throw new Error(`no route for POST ${path}`);
    return { response, session, html: await response.text() };
  }

  const stored = async () => store.list(ADA, { limit: 100, offset: 0 });
  return { api, form, stored, hookErrors };
}

const refuseDrafts: RecordHooks<typeof noteModel> = {
  beforeCreate: ({ values }) =>
    values.title.startsWith("draft") ? { fields: { title: ["is reserved"] } } : undefined,
};

describe("record hooks through the JSON routes", () => {
  it("hands beforeCreate the typed decoded values and afterCreate the record as answered", async () => {
    const seen: unknown[] = [];
    const app = mounted({
      beforeCreate: (event) => {
        expectTypeOf(event.values.title).toEqualTypeOf<string>();
        expectTypeOf(event.values.word_count).toEqualTypeOf<number | null>();
        seen.push(["before", event]);
        return undefined;
      },
      afterCreate: (event) => {
        expectTypeOf(event.record.pinned).toEqualTypeOf<boolean>();
        seen.push(["after", event]);
      },
    });
    const created = await app.api("POST", "/api/notes", { title: "Hi", pinned: true });
    expect(created.status).toBe(201);
    expect(seen).toEqual([
      ["before", { ownerId: ADA, values: { title: "Hi", pinned: 1, word_count: null } }],
      ["after", { ownerId: ADA, record: created.body }],
    ]);
  });

  it("answers a beforeCreate refusal as a validation failure and stores nothing", async () => {
    let afterRuns = 0;
    const app = mounted({ ...refuseDrafts, afterCreate: () => void afterRuns++ });
    const refused = await app.api("POST", "/api/notes", { title: "draft one" });
    expect(refused).toEqual({
      status: 422,
      body: {
        error: {
          code: "validation_failed",
          message: "Validation failed",
          status: 422,
          fields: { title: ["is reserved"] },
        },
      },
    });
    expect(await app.stored()).toEqual([]);
    expect(afterRuns).toBe(0);
  });

  it("runs no hook on a body that fails the model's own validation", async () => {
    let calls = 0;
    const app = mounted({ beforeCreate: () => void calls++ });
    expect((await app.api("POST", "/api/notes", { title: "  " })).status).toBe(422);
    expect(calls).toBe(0);
  });

  it("hands beforeUpdate the stored record and the changes; a refusal leaves the row as it was", async () => {
    const seen: unknown[] = [];
    const app = mounted({
      beforeUpdate: ({ record, changes }) => {
        seen.push({ record, changes });
        return record.pinned && changes.title !== undefined
          ? { fields: { title: ["cannot change on a pinned note"] } }
          : undefined;
      },
    });
    const { body: note } = await app.api("POST", "/api/notes", { title: "Hi", pinned: true });
    const refused = await app.api("PATCH", `/api/notes/${note.id}`, { title: "Bye" });
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields).toEqual({ title: ["cannot change on a pinned note"] });
    expect(seen).toEqual([{ record: note, changes: { title: "Bye" } }]);
    expect((await app.stored())[0]?.title).toBe("Hi");
    const allowed = await app.api("PATCH", `/api/notes/${note.id}`, { word_count: 3 });
    expect(allowed.status).toBe(200);
    expect(allowed.body.word_count).toBe(3);
  });

  it("runs afterUpdate with the record as the update left it", async () => {
    const after: unknown[] = [];
    const app = mounted({ afterUpdate: (event) => void after.push(event) });
    const { body: note } = await app.api("POST", "/api/notes", { title: "Hi" });
    const updated = await app.api("PATCH", `/api/notes/${note.id}`, { title: "Bye" });
    expect(after).toEqual([{ ownerId: ADA, record: updated.body, changes: { title: "Bye" } }]);
  });

  it("answers 404 for an update or delete of no record without calling a hook", async () => {
    let calls = 0;
    const app = mounted({ beforeUpdate: () => void calls++, beforeDelete: () => void calls++ });
    expect((await app.api("PATCH", "/api/notes/99", { title: "x" })).status).toBe(404);
    expect((await app.api("DELETE", "/api/notes/99")).status).toBe(404);
    expect(calls).toBe(0);
  });

  it("lets beforeDelete refuse with a 422 and keeps the record; afterDelete gets the deleted one", async () => {
    const deleted: unknown[] = [];
    const app = mounted({
      beforeDelete: ({ record }) =>
        record.pinned ? { fields: { pinned: ["must be unpinned first"] } } : undefined,
      afterDelete: ({ record }) => void deleted.push(record),
    });
    const { body: pinned } = await app.api("POST", "/api/notes", { title: "A", pinned: true });
    const { body: loose } = await app.api("POST", "/api/notes", { title: "B" });
    const refused = await app.api("DELETE", `/api/notes/${pinned.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields).toEqual({ pinned: ["must be unpinned first"] });
    expect((await app.api("DELETE", `/api/notes/${loose.id}`)).status).toBe(204);
    expect(deleted).toEqual([loose]);
    expect((await app.stored()).map((row) => row.title)).toEqual(["A"]);
  });

  it("keeps a committed write when an after hook throws, and reports the failure", async () => {
    const app = mounted({
      afterCreate: () => {
        throw new Error("search index down");
      },
    });
    const created = await app.api("POST", "/api/notes", { title: "Hi" });
    expect(created.status).toBe(201);
    expect((await app.stored()).map((row) => row.title)).toEqual(["Hi"]);
    expect(app.hookErrors).toEqual([["search index down", "afterCreate"]]);
  });

  it("writes nothing when a before hook throws: the error is the caller's", async () => {
    const app = mounted({
      beforeCreate: () => {
        throw new Error("quota service down");
      },
    });
    await expect(app.api("POST", "/api/notes", { title: "Hi" })).rejects.toThrow(
      "quota service down",
    );
    expect(await app.stored()).toEqual([]);
  });
});

describe("record hooks through the HTML pages", () => {
  it("re-renders the form with a beforeCreate refusal as a full sentence", async () => {
    const app = mounted(refuseDrafts);
    const { response, html } = await app.form("/notes", { title: "draft two", pinned: "0" });
    expect(response.status).toBe(422);
    expect(html).toContain("Title is reserved");
    expect(html).toContain('value="draft two"');
    expect(await app.stored()).toEqual([]);
  });

  it("says a beforeDelete refusal on the record's page and keeps the record", async () => {
    const app = mounted({
      beforeDelete: () => ({ fields: { pinned: ["must be unpinned first"] } }),
    });
    const { body: note } = await app.api("POST", "/api/notes", { title: "A", pinned: true });
    const { response, session } = await app.form(`/notes/${note.id}/delete`, {});
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/notes/${note.id}`);
    expect(session.takeFlashes()).toEqual([
      { kind: "alert", message: "Pinned must be unpinned first" },
    ]);
    expect(await app.stored()).toHaveLength(1);
  });
});
