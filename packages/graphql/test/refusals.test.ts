// What the API refuses: field rules (validation_failed with camelCase keys), input GraphQL's
// types refuse before any resolver runs, and list arguments out of range.
import { describe, expect, it } from "vitest";
import { BOB, insertPost, setUp } from "./fixtures.js";

const validationFailed = (path: string, fields: Record<string, string[]>) => ({
  data: null,
  errors: [
    {
      message: "Validation failed",
      locations: expect.any(Array),
      path: [path],
      extensions: { code: "validation_failed", status: 422, fields },
    },
  ],
});

describe("validation", () => {
  it("reports every failing field at once, keyed by its GraphQL name, and stores nothing", async () => {
    const { send, rows } = await setUp();
    const answer = await send(
      'mutation { createNote(input: { title: "   ", dueOn: "2023-02-29", postId: "999" }) { id } }',
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(
      validationFailed("createNote", {
        title: ["can't be blank"],
        dueOn: ["is not a valid date"],
      }),
    );
    expect(rows("SELECT id FROM notes")).toEqual([]);
  });

  it("says `must exist` for a missing post and for another user's", async () => {
    const { send, database } = await setUp();
    const bobsPost = await insertPost(database, BOB);
    for (const postId of ["999", String(bobsPost), "0"]) {
      const answer = await send(
        'mutation ($post: ID) { createNote(input: { title: "x", postId: $post }) { id } }',
        { variables: { post: postId } },
      );
      expect(answer.body).toEqual(validationFailed("createNote", { postId: ["must exist"] }));
    }
  });

  it("keys a date, time, decimal and uuid of the other types by their camelCase names", async () => {
    const { send } = await setUp();
    const answer = await send(
      'mutation { createArticle(input: { title: "x", publishOn: "2024-13-01", startsAt: "soon", reminderAt: "25:00", price: "1e3", externalRef: "nope", linkType: "post", linkId: "5" }) { id } }',
    );
    expect(answer.body).toEqual(
      validationFailed("createArticle", {
        publishOn: ["is not a valid date"],
        startsAt: ["is not a valid date and time"],
        reminderAt: ["is not a valid time"],
        price: ["is not a decimal number"],
        externalRef: ["is not a valid UUID"],
      }),
    );
  });

  it("says `has already been taken` for a duplicate unique field, on create and update", async () => {
    const { send } = await setUp();
    await send('mutation { createArticle(input: { title: "a", slug: "same" }) { id } }');
    const duplicate = await send(
      'mutation { createArticle(input: { title: "b", slug: "same" }) { id } }',
    );
    expect(duplicate.body).toEqual(
      validationFailed("createArticle", { slug: ["has already been taken"] }),
    );
    const other = await send('mutation { createArticle(input: { title: "c" }) { id } }');
    const updated = await send(
      `mutation { updateArticle(id: ${other.body.data.createArticle.id}, input: { slug: "same" }) { id } }`,
    );
    expect(updated.body).toEqual(
      validationFailed("updateArticle", { slug: ["has already been taken"] }),
    );
  });

  it("refuses a polymorphic link to a missing record on its id", async () => {
    const { send } = await setUp();
    const answer = await send(
      'mutation { createArticle(input: { title: "x", linkType: "note", linkId: 12 }) { id } }',
    );
    expect(answer.body).toEqual(validationFailed("createArticle", { linkId: ["must exist"] }));
  });
});

describe("malformed input: a GraphQL validation error, and no resolver runs", () => {
  it.each([
    [
      "a missing required field",
      'mutation { createNote(input: { body: "x" }) { id } }',
      'Expected value of type "NoteCreateInput" to include required field "title", found: { body: "x" }.',
    ],
    [
      "a value of the wrong type",
      "mutation { createNote(input: { title: 5 }) { id } }",
      "String cannot represent a non string value: 5",
    ],
    [
      "a fraction for a SafeInt",
      'mutation { createNote(input: { title: "x", wordCount: 1.5 }) { id } }',
      "SafeInt cannot represent non-integer value: 1.5",
    ],
    [
      "an integer beyond 2^53 - 1",
      'mutation { createNote(input: { title: "x", wordCount: 9007199254740992 }) { id } }',
      "SafeInt cannot represent unsafe integer value: 9007199254740992",
    ],
    [
      "an unknown field",
      'mutation { createNote(input: { title: "x", colour: "red" }) { id } }',
      'Expected value of type "NoteCreateInput" not to include unknown field "colour", found: { title: "x", colour: "red" }.',
    ],
    ["an unknown query", "{ secrets { id } }", 'Cannot query field "secrets" on type "Query".'],
    ["a syntax error", "mutation { createNote(input: { title: ", "Syntax Error: Unexpected <EOF>."],
  ])("%s", async (_case, query, message) => {
    const { send, rows } = await setUp();
    const answer = await send(query);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors.map((error: { message: string }) => error.message)).toContain(
      message,
    );
    expect(rows("SELECT id FROM notes")).toEqual([]);
  });

  it("refuses a variable of the wrong type before anything runs", async () => {
    const { send, rows } = await setUp();
    const answer = await send(
      "mutation ($input: NoteCreateInput!) { createNote(input: $input) { id } }",
      { variables: { input: { title: "x", wordCount: 9007199254740992 } } },
    );
    expect(answer.body.errors[0].message).toBe(
      'Variable "$input" has invalid value at .wordCount: SafeInt cannot represent unsafe integer value: 9007199254740992',
    );
    expect(answer.body.data).toBeUndefined();
    expect(rows("SELECT id FROM notes")).toEqual([]);
  });

  it.each([
    ["an array", "[[[1]]]", "an array"],
    ["an object", '{"n": 1}', "an object"],
  ])(
    "refuses %s given for a SafeInt by its kind, not as the text it would make",
    async (_case, value, kind) => {
      const { api, rows } = await setUp();
      const response = await api.handle(
        new Request("http://localhost/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer ada-token" },
          body: `{"query": "mutation ($w: SafeInt) { createNote(input: {title: \\"x\\", wordCount: $w}) { id } }", "variables": {"w": ${value}}}`,
        }),
      );
      expect((await response.json()).errors).toEqual([
        expect.objectContaining({
          message: `Variable "$w" has invalid value: SafeInt cannot represent non-integer value: ${kind}`,
        }),
      ]);
      expect(rows("SELECT id FROM notes")).toEqual([]);
    },
  );

  it("answers 400 to a client that accepts the GraphQL response media type", async () => {
    const { send } = await setUp();
    const answer = await send("mutation { createNote(input: { title: 5 }) { id } }", {
      accept: "application/graphql-response+json",
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].message).toBe("String cannot represent a non string value: 5");
  });
});

describe("list arguments", () => {
  it("lists newest first, 50 by default, with limit and offset", async () => {
    const { send } = await setUp();
    const titles = Array.from({ length: 55 }, (_, n) => `n${n}`);
    for (const title of titles) {
      await send("mutation ($t: String!) { createNote(input: { title: $t }) { id } }", {
        variables: { t: title },
      });
    }
    const all = await send("{ notes { title } }");
    expect(all.body.data.notes.map((note: { title: string }) => note.title)).toEqual(
      titles.slice(5).reverse(),
    );
    const page = await send("{ notes(limit: 2, offset: 3) { title } }");
    expect(page.body.data.notes).toEqual([{ title: "n51" }, { title: "n50" }]);
    const nulls = await send("{ notes(limit: null, offset: null) { title } }");
    expect(nulls.body.data.notes).toHaveLength(50);
  });

  it.each([
    ["limit: 0", "limit must be an integer from 1 to 100"],
    ["limit: 101", "limit must be an integer from 1 to 100"],
    ["limit: -1", "limit must be an integer from 1 to 100"],
    ["offset: -1", "offset must be an integer of 0 or more"],
  ])("refuses %s with bad_request", async (args, message) => {
    const { send } = await setUp();
    const answer = await send(`{ notes(${args}) { id } }`);
    expect(answer.body).toEqual({
      data: null,
      errors: [
        {
          message,
          locations: expect.any(Array),
          path: ["notes"],
          extensions: { code: "bad_request", status: 400 },
        },
      ],
    });
  });
});
