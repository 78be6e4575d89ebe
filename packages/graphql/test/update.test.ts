// updateX as PATCH /api/<p>/{id}: an omitted field keeps its value, null clears an optional
// one, and a sent lockVersion must equal the stored one.
import { describe, expect, it } from "vitest";
import { insertPost, setUp } from "./fixtures.js";

const FIELDS = "title body pinned dueOn rating wordCount tags postId updatedAt";

async function noteWithEverything() {
  const context = await setUp();
  const postId = await insertPost(context.database, 1);
  const created = await context.send(
    `mutation { createNote(input: { title: "T", body: "B", pinned: true, dueOn: "2024-02-29", rating: 1.5, wordCount: 7, tags: ["x"], postId: ${postId} }) { id } }`,
  );
  return { ...context, id: created.body.data.createNote.id as string, postId };
}

const update = (input: string) =>
  `mutation ($id: ID!) { updateNote(id: $id, input: ${input}) { ${FIELDS} } }`;

describe("updateNote", () => {
  it("keeps every field it is not sent, and still counts as an update", async () => {
    const { send, id, postId } = await noteWithEverything();
    const answer = await send(update("{}"), { variables: { id } });
    expect(answer.body.data.updateNote).toEqual({
      title: "T",
      body: "B",
      pinned: true,
      dueOn: "2024-02-29",
      rating: 1.5,
      wordCount: 7,
      tags: ["x"],
      postId: String(postId),
      updatedAt: "2025-01-01 08:00:02",
    });
  });

  it("clears each optional field sent as null, in a literal or through a variable", async () => {
    const { send, id, rows } = await noteWithEverything();
    const literal = await send(update("{ body: null, dueOn: null, rating: null }"), {
      variables: { id },
    });
    expect(literal.body.data.updateNote).toMatchObject({
      title: "T",
      body: null,
      dueOn: null,
      rating: null,
      wordCount: 7,
      tags: ["x"],
    });
    const variables = await send(
      "mutation ($id: ID!, $input: NoteUpdateInput!) { updateNote(id: $id, input: $input) { wordCount tags postId title } }",
      { variables: { id, input: { wordCount: null, tags: null, postId: null } } },
    );
    expect(variables.body.data.updateNote).toEqual({
      wordCount: null,
      tags: null,
      postId: null,
      title: "T",
    });
    expect(
      rows("SELECT body, due_on, rating, word_count, tags, post_id, title FROM notes"),
    ).toEqual([
      {
        body: null,
        due_on: null,
        rating: null,
        word_count: null,
        tags: null,
        post_id: null,
        title: "T",
      },
    ]);
  });

  it("clears an optional field sent blank, as the JSON API does", async () => {
    const { send, id } = await noteWithEverything();
    const answer = await send(update('{ body: "  ", dueOn: "" }'), { variables: { id } });
    expect(answer.body.data.updateNote).toMatchObject({ body: null, dueOn: null });
  });

  it("changes what it is sent", async () => {
    const { send, id } = await noteWithEverything();
    const answer = await send(
      update('{ title: "New", pinned: false, wordCount: -3, tags: {k: "v"}, rating: 2 }'),
      { variables: { id } },
    );
    expect(answer.body.data.updateNote).toMatchObject({
      title: "New",
      pinned: false,
      wordCount: -3,
      tags: { k: "v" },
      rating: 2,
      body: "B",
    });
  });

  it("refuses null for a required field or a boolean, naming the GraphQL field, and changes nothing", async () => {
    const { send, id, rows } = await noteWithEverything();
    const before = rows("SELECT * FROM notes");
    for (const [input, message] of [
      ["{ title: null }", "title: invalid type: null, expected a string"],
      ["{ pinned: null }", "pinned: invalid type: null, expected a boolean"],
    ] as const) {
      const answer = await send(update(input), { variables: { id } });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        data: null,
        errors: [
          {
            message,
            locations: expect.any(Array),
            path: ["updateNote"],
            extensions: { code: "bad_request", status: 400 },
          },
        ],
      });
    }
    expect(rows("SELECT * FROM notes")).toEqual(before);
  });
});

describe("lockVersion", () => {
  async function article() {
    const context = await setUp();
    const created = await context.send(
      'mutation { createArticle(input: { title: "v0" }) { id lockVersion } }',
    );
    expect(created.body.data.createArticle.lockVersion).toBe(0);
    return { ...context, id: created.body.data.createArticle.id as string };
  }
  const updateArticle =
    "mutation ($id: ID!, $input: ArticleUpdateInput!) { updateArticle(id: $id, input: $input) { title lockVersion } }";

  it("adds one per update, checks the version sent and skips the check when none is", async () => {
    const { send, id } = await article();
    const first = await send(updateArticle, {
      variables: { id, input: { title: "v1", lockVersion: 0 } },
    });
    expect(first.body.data.updateArticle).toEqual({ title: "v1", lockVersion: 1 });
    const unchecked = await send(updateArticle, { variables: { id, input: { title: "v2" } } });
    expect(unchecked.body.data.updateArticle).toEqual({ title: "v2", lockVersion: 2 });
  });

  it("refuses a stale version with stale_record and status 409, in a 200 response, and keeps the row", async () => {
    const { send, id, rows } = await article();
    await send(updateArticle, { variables: { id, input: { title: "theirs", lockVersion: 0 } } });
    const stale = await send(updateArticle, {
      variables: { id, input: { title: "mine", lockVersion: 0 } },
    });
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual({
      data: null,
      errors: [
        {
          message: "This record was changed by someone else: reload it and try again",
          locations: expect.any(Array),
          path: ["updateArticle"],
          extensions: { code: "stale_record", status: 409 },
        },
      ],
    });
    expect(rows("SELECT title, lock_version FROM articles")).toEqual([
      { title: "theirs", lock_version: 1 },
    ]);
  });

  it("answers the conflict with 200 under the GraphQL response media type too", async () => {
    const { send, id } = await article();
    await send(updateArticle, { variables: { id, input: { lockVersion: 0 } } });
    const stale = await send(updateArticle, {
      variables: { id, input: { lockVersion: 0 } },
      accept: "application/graphql-response+json",
    });
    expect(stale.status).toBe(200);
    expect(stale.headers.get("content-type")).toBe(
      "application/graphql-response+json; charset=utf-8",
    );
    expect(stale.body.errors[0].extensions).toEqual({ code: "stale_record", status: 409 });
  });
});
