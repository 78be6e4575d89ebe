import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Graphql = typeof import("@tessera/graphql");
type Fields = typeof import("@tessera/fields");
type Http = typeof import("@tessera/http");
type Records = typeof import("@tessera/records");

const ADA = 1;
const BOB = 2;
const TOKENS: Readonly<Record<string, number>> = { "ada-token": ADA, "bob-token": BOB };

export default {
  does: "create and list a note over POST /graphql on a memory store; refuse a blank title and no token",
  imports: () => ["@tessera/graphql", "@tessera/fields", "@tessera/http", "@tessera/records"],
  async run({ load, check }) {
    const { graphqlModel, graphqlRoutes } = await load<Graphql>("@tessera/graphql");
    const { defineModel } = await load<Fields>("@tessera/fields");
    const { routeRequests, unauthorized } = await load<Http>("@tessera/http");
    const { MemoryRecordStore, MemoryRecordTables } = await load<Records>("@tessera/records");

    const noteModel = graphqlModel(
      defineModel("note", ["title:string", "pinned:bool", "word_count:integer?"]),
    );
    const store = new MemoryRecordStore(new MemoryRecordTables(), noteModel);
    const handle = routeRequests(
      graphqlRoutes({
        records: [{ model: noteModel, store, clock: () => Date.UTC(2025, 0, 1, 8, 0, 0) }],
        authenticate: async (request) => {
          const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
          const id = token === undefined ? undefined : TOKENS[token];
          return id === undefined
            ? { ok: false, response: unauthorized({ "WWW-Authenticate": "Bearer" }) }
            : { ok: true, value: { user: { id } } };
        },
      }),
    );
    const send = async (query: string, variables: unknown, token: string | null) => {
      const response = await handle(
        new Request("https://app.example/graphql", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(token === null ? {} : { authorization: `Bearer ${token}` }),
          },
          body: JSON.stringify({ query, variables }),
        }),
      );
      if (!response) throw new Error("no route for POST /graphql");
      return {
        status: response.status,
        headers: response.headers,
        // biome-ignore lint/suspicious/noExplicitAny: the smoke reads whatever shape the answer has.
        body: (await response.json()) as any,
      };
    };

    const create =
      "mutation ($input: NoteCreateInput!) { createNote(input: $input) { id userId title pinned wordCount createdAt } }";
    const created = await send(
      create,
      { input: { title: "Groceries", pinned: true, wordCount: 9007199254740991 } },
      "ada-token",
    );
    const note = created.body.data?.createNote;
    check(
      created.status === 200 &&
        created.body.errors === undefined &&
        note?.userId === String(ADA) &&
        note.title === "Groceries" &&
        note.pinned === true &&
        note.wordCount === 9007199254740991 &&
        note.createdAt === "2025-01-01 08:00:00",
      "createNote answers the stored note",
    );
    const row = await store.find(ADA, { id: Number(note?.id) });
    check(row?.title === "Groceries" && row.user_id === ADA, "the note is stored for its owner");

    const listed = await send("{ notes { id title } }", {}, "ada-token");
    check(
      JSON.stringify(listed.body) ===
        JSON.stringify({ data: { notes: [{ id: note?.id, title: "Groceries" }] } }),
      "the owner's query lists the note",
    );
    const foreign = await send(
      "query ($id: ID!) { note(id: $id) { id } }",
      { id: note?.id },
      "bob-token",
    );
    check(
      foreign.status === 200 && foreign.body.data?.note === null,
      "another user reads the note as missing",
    );

    const blank = await send(create, { input: { title: "", pinned: false } }, "ada-token");
    const [error] = blank.body.errors ?? [];
    check(
      error?.message === "Validation failed" &&
        error.extensions?.code === "validation_failed" &&
        error.extensions.status === 422 &&
        error.extensions.fields?.title?.[0] === "can't be blank",
      "a blank title is refused with the validation error",
    );
    const anonymous = await send("{ notes { id } }", {}, null);
    check(
      anonymous.status === 401 &&
        anonymous.headers.get("www-authenticate") === "Bearer" &&
        anonymous.body.error?.message === "Unauthorized",
      "a request without a token is a 401",
    );
  },
} satisfies RuntimeSmoke;
