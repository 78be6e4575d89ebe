// Every field type through createX, back out through the queries, and into the same row the
// JSON API stores for the same values.
import { describe, expect, it } from "vitest";
import { articleModel, insertPost, noteModel, setUp } from "./fixtures.js";

const NOTE_FIELDS =
  "id userId title body pinned dueOn rating wordCount tags postId createdAt updatedAt";
const ARTICLE_FIELDS =
  "id userId title body published views rating publishOn startsAt reminderAt price externalRef metadata slug lockVersion linkType linkId createdAt updatedAt";

describe("notes", () => {
  it("round-trips every field: the answer, the queries and the stored row", async () => {
    const { send, rows, database } = await setUp();
    const postId = await insertPost(database, 1);
    const input = {
      title: "Groceries",
      body: "Milk\nEggs",
      pinned: true,
      dueOn: "2024-02-29",
      rating: 4.5,
      wordCount: 9007199254740991,
      tags: { list: ["a", 1, null, true], nested: { deep: [] } },
      postId: String(postId),
    };
    const created = await send(
      `mutation ($input: NoteCreateInput!) { createNote(input: $input) { ${NOTE_FIELDS} } }`,
      { variables: { input } },
    );
    expect(created.status).toBe(200);
    expect(created.body.errors).toBeUndefined();
    const note = created.body.data.createNote;
    expect(note).toEqual({
      id: expect.stringMatching(/^[0-9]+$/),
      userId: "1",
      ...input,
      createdAt: "2025-01-01 08:00:01",
      updatedAt: "2025-01-01 08:00:01",
    });

    const shown = await send(`query ($id: ID!) { note(id: $id) { ${NOTE_FIELDS} } }`, {
      variables: { id: note.id },
    });
    expect(shown.body).toEqual({ data: { note } });
    const listed = await send(`{ notes { ${NOTE_FIELDS} } }`);
    expect(listed.body).toEqual({ data: { notes: [note] } });

    expect(rows("SELECT * FROM notes WHERE id = ?", Number(note.id))).toEqual([
      {
        id: Number(note.id),
        user_id: 1,
        title: "Groceries",
        body: "Milk\nEggs",
        pinned: 1,
        due_on: "2024-02-29",
        rating: 4.5,
        word_count: 9007199254740991,
        tags: JSON.stringify(input.tags),
        post_id: postId,
        created_at: "2025-01-01 08:00:01",
        updated_at: "2025-01-01 08:00:01",
      },
    ]);
  });

  it("takes literals as well as variables, and makes optional fields null and a boolean false", async () => {
    const { send } = await setUp();
    const created = await send(
      `mutation { createNote(input: { title: "Only a title", tags: { a: [1, "x", null] }, wordCount: -9007199254740991 }) { ${NOTE_FIELDS} } }`,
    );
    expect(created.body.data.createNote).toMatchObject({
      title: "Only a title",
      body: null,
      pinned: false,
      dueOn: null,
      rating: null,
      wordCount: -9007199254740991,
      tags: { a: [1, "x", null] },
      postId: null,
    });
  });

  it("keeps a JSON string as a string, and JSON null as null", async () => {
    const { send } = await setUp();
    const created = await send(
      'mutation ($tags: JSON) { a: createNote(input: { title: "a", tags: $tags }) { tags } b: createNote(input: { title: "b", tags: null }) { tags } }',
      { variables: { tags: "just text" } },
    );
    expect(created.body.data).toEqual({ a: { tags: "just text" }, b: { tags: null } });
  });

  it("stores the same row as POST /api/notes for the same values", async () => {
    const { send, rows, json, database } = await setUp();
    const postId = await insertPost(database, 1);
    const graphql = await send(
      `mutation { createNote(input: { title: " spaced ", body: "", pinned: false, dueOn: "2024-01-31", rating: 0, wordCount: 0, tags: [], postId: ${postId} }) { id } }`,
    );
    const response = await json(noteModel)("POST", "/api/notes", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        title: " spaced ",
        body: "",
        pinned: false,
        due_on: "2024-01-31",
        rating: 0,
        word_count: 0,
        tags: [],
        post_id: postId,
      }),
    });
    expect(response.status).toBe(201);
    const [fromGraphql, fromJson] = rows("SELECT * FROM notes ORDER BY id").map(
      ({ id, created_at, updated_at, ...rest }) => rest,
    );
    expect(Number(graphql.body.data.createNote.id)).toBe(1);
    expect(fromGraphql).toEqual(fromJson);
    expect(fromGraphql).toMatchObject({ title: " spaced ", body: null, tags: "[]" });
  });
});

describe("articles: the other types", () => {
  it("round-trips rich text (sanitized), numbers, dates, times, decimals, uuids, json and a polymorphic link", async () => {
    const { send, rows, database } = await setUp();
    const postId = await insertPost(database, 1);
    const created = await send(
      `mutation ($input: ArticleCreateInput!) { createArticle(input: $input) { ${ARTICLE_FIELDS} } }`,
      {
        variables: {
          input: {
            title: "Hello",
            body: "<p>Hi <strong>there</strong><script>alert(1)</script></p>",
            published: true,
            views: 42,
            rating: 1e3,
            publishOn: "2024-02-29",
            startsAt: "2024-02-29T13:05:09",
            reminderAt: "09:30",
            price: "-12.50",
            externalRef: "0F8FAD5B-D9CB-469F-A165-70867728950E",
            metadata: [1, { a: "b" }],
            slug: "hello",
            linkType: "post",
            linkId: String(postId),
          },
        },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const article = created.body.data.createArticle;
    expect(article).toMatchObject({
      body: "<p>Hi <strong>there</strong></p>",
      published: true,
      views: 42,
      rating: 1000,
      startsAt: "2024-02-29T13:05:09",
      price: "-12.50",
      externalRef: "0F8FAD5B-D9CB-469F-A165-70867728950E",
      metadata: [1, { a: "b" }],
      lockVersion: 0,
      linkType: "post",
      linkId: String(postId),
    });
    const shown = await send(`query ($id: ID!) { article(id: $id) { ${ARTICLE_FIELDS} } }`, {
      variables: { id: Number(article.id) },
    });
    expect(shown.body.data.article).toEqual(article);
    expect(rows("SELECT link_type, link_id, cover_key FROM articles")).toEqual([
      { link_type: "post", link_id: postId, cover_key: null },
    ]);
  });

  it("ignores nothing silently: attachment columns are not in the input", async () => {
    const { send } = await setUp();
    const refused = await send(
      'mutation { createArticle(input: { title: "x", coverKey: "k" }) { id } }',
    );
    expect(refused.body.errors[0].message).toBe(
      'Expected value of type "ArticleCreateInput" not to include unknown field "coverKey", found: { title: "x", coverKey: "k" }.',
    );
  });

  it("deletes the record with its files", async () => {
    const { send, rows, storage, json } = await setUp();
    const created = await send('mutation { createArticle(input: { title: "x" }) { id } }');
    const id = created.body.data.createArticle.id;
    const form = new FormData();
    form.set("file", new File(["png"], "a.png", { type: "image/png" }));
    const upload = await json(articleModel)("PUT", `/api/articles/${id}/cover`, { body: form });
    expect(upload.status).toBe(200);
    const key = rows("SELECT cover_key FROM articles")[0]!.cover_key as string;
    expect(await storage.get(key)).toBeDefined();

    const deleted = await send("mutation ($id: ID!) { deleteArticle(id: $id) }", {
      variables: { id },
    });
    expect(deleted.body).toEqual({ data: { deleteArticle: true } });
    expect(rows("SELECT id FROM articles")).toEqual([]);
    expect(await storage.get(key)).toBeUndefined();
  });
});

describe("comments: a required reference", () => {
  it("takes the post's id as an ID, written as text or as a number", async () => {
    const { send, database, rows } = await setUp();
    const postId = await insertPost(database, 1);
    const answer = await send(
      `mutation ($post: ID!) { a: createComment(input: { postId: $post, body: "x" }) { postId } b: createComment(input: { postId: ${postId}, body: "y" }) { postId } }`,
      { variables: { post: String(postId) } },
    );
    expect(answer.body).toEqual({
      data: { a: { postId: String(postId) }, b: { postId: String(postId) } },
    });
    expect(rows("SELECT post_id, body FROM comments ORDER BY id")).toEqual([
      { post_id: postId, body: "x" },
      { post_id: postId, body: "y" },
    ]);
  });
});
