import { defineModel } from "@tessera/fields";
import { routeRequests } from "@tessera/http";
import { MemoryRecordStore, MemoryRecordTables, type RecordHooks } from "@tessera/records";
import { describe, expect, it } from "vitest";
import { graphqlModel, graphqlRoutes } from "../src/index.js";
import { authenticate, EXECUTOR_OPTIONS } from "./fixtures.js";

const noteModel = graphqlModel(defineModel("note", ["title:string", "pinned:bool"]));

/** The note mutations on a memory store, with hooks declared for the note model. */
function mounted(hooks: RecordHooks<typeof noteModel>) {
  const store = new MemoryRecordStore(new MemoryRecordTables(), noteModel);
  const handle = routeRequests(
    graphqlRoutes({
      records: [{ model: noteModel, store, hooks }],
      authenticate,
      ...EXECUTOR_OPTIONS,
    }),
  );
  async function send(query: string, variables: Record<string, unknown>) {
    const response = await handle(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer ada-token" },
        body: JSON.stringify({ query, variables }),
      }),
    );
    if (!response) throw new Error("no route for POST /graphql");
    // biome-ignore lint/suspicious/noExplicitAny: the test reads whatever shape the answer has.
    return (await response.json()) as any;
  }
  return { send, stored: () => store.list(1, { limit: 100, offset: 0 }) };
}

const CREATE =
  "mutation ($input: NoteCreateInput!) { createNote(input: $input) { id title pinned } }";
const DELETE = "mutation ($id: ID!) { deleteNote(id: $id) }";

describe("record hooks through GraphQL mutations", () => {
  it("answers a beforeCreate refusal as validation_failed with the field in GraphQL spelling", async () => {
    const app = mounted({
      beforeCreate: ({ values }) =>
        values.title === "draft" ? { fields: { title: ["is reserved"] } } : undefined,
    });
    const refused = await app.send(CREATE, { input: { title: "draft", pinned: false } });
    expect(refused.errors[0].extensions).toMatchObject({
      code: "validation_failed",
      fields: { title: ["is reserved"] },
    });
    expect(await app.stored()).toEqual([]);
    const created = await app.send(CREATE, { input: { title: "Hi", pinned: true } });
    expect(created.data.createNote).toMatchObject({ title: "Hi", pinned: true });
  });

  it("lets beforeDelete refuse, keeps the record, and runs afterDelete on a delete that went through", async () => {
    const deleted: unknown[] = [];
    const app = mounted({
      beforeDelete: ({ record }) =>
        record.pinned ? { fields: { pinned: ["must be unpinned first"] } } : undefined,
      afterDelete: ({ record }) => void deleted.push(record.title),
    });
    const pinned = await app.send(CREATE, { input: { title: "A", pinned: true } });
    const loose = await app.send(CREATE, { input: { title: "B", pinned: false } });
    const refused = await app.send(DELETE, { id: pinned.data.createNote.id });
    expect(refused.errors[0].extensions).toMatchObject({
      code: "validation_failed",
      fields: { pinned: ["must be unpinned first"] },
    });
    expect((await app.send(DELETE, { id: loose.data.createNote.id })).data).toEqual({
      deleteNote: true,
    });
    expect(deleted).toEqual(["B"]);
    expect((await app.stored()).map((row) => row.title)).toEqual(["A"]);
  });
});
