// POST /graphql on the running app, driven by a real GraphQL client (graphql-request) with a
// bearer token: the `notes` model, which the JSON API also serves at /api/notes.
import { ClientError, GraphQLClient } from "graphql-request";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1" });
});
afterAll(() => server.stop());

/** Signs a new user up and gives a GraphQL client with their JWT, and the token. */
async function signedInClient(): Promise<{ client: GraphQLClient; token: string; id: number }> {
  const client = newClientAddress();
  const credentials = {
    email: `graphql.${client}.${Date.now()}@example.com`,
    password: "correct horse battery",
  };
  const post = (path: string) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": client },
      body: JSON.stringify(credentials),
    });
  const user = await (await post("/api/auth/signup")).json();
  const { token } = await (await post("/api/auth/token")).json();
  return {
    client: new GraphQLClient(`${server.url}/graphql`, {
      headers: { authorization: `Bearer ${token}` },
    }),
    token,
    id: user.id,
  };
}

const NOTE = "id userId title body pinned dueOn rating wordCount tags postId createdAt updatedAt";

interface Note {
  readonly id: string;
  readonly [field: string]: unknown;
}

describe("POST /graphql with graphql-request", () => {
  it("creates, reads, lists, updates and deletes a note of every field type", async () => {
    const { client, token, id: userId } = await signedInClient();
    const postResponse = await fetch(`${server.url}/api/posts`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ title: "A post", status: "draft" }),
    });
    const post = await postResponse.json();

    const input = {
      title: "Through GraphQL",
      body: "Line 1\nLine 2",
      pinned: true,
      dueOn: "2024-02-29",
      rating: 4.25,
      wordCount: 9007199254740991,
      tags: ["a", { b: 1 }],
      postId: String(post.id),
    };
    const { createNote } = await client.request<{ createNote: Note }>(
      `mutation ($input: NoteCreateInput!) { createNote(input: $input) { ${NOTE} } }`,
      { input },
    );
    expect(createNote).toMatchObject({ ...input, userId: String(userId) });

    const { note } = await client.request<{ note: Note }>(
      `query ($id: ID!) { note(id: $id) { ${NOTE} } }`,
      { id: createNote.id },
    );
    expect(note).toEqual(createNote);
    const { notes } = await client.request<{ notes: Note[] }>(`{ notes(limit: 50) { ${NOTE} } }`);
    expect(notes).toEqual([createNote]);

    // The JSON API serves the same record, in its own spelling.
    const json = await fetch(`${server.url}/api/notes/${createNote.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await json.json()).toMatchObject({
      id: Number(createNote.id),
      word_count: 9007199254740991,
      due_on: "2024-02-29",
      post_id: post.id,
    });

    const { updateNote } = await client.request<{ updateNote: Note }>(
      'mutation ($id: ID!) { updateNote(id: $id, input: { body: null, title: "Renamed" }) { title body pinned tags } }',
      { id: createNote.id },
    );
    expect(updateNote).toEqual({ title: "Renamed", body: null, pinned: true, tags: input.tags });
    expect(
      await server.query(
        "SELECT title, body, word_count FROM notes WHERE id = ?",
        Number(createNote.id),
      ),
    ).toEqual([{ title: "Renamed", body: null, word_count: 9007199254740991 }]);

    const deleted = await client.request<{ deleteNote: boolean }>(
      "mutation ($id: ID!) { deleteNote(id: $id) }",
      { id: createNote.id },
    );
    expect(deleted).toEqual({ deleteNote: true });
    expect(await server.query("SELECT id FROM notes WHERE id = ?", Number(createNote.id))).toEqual(
      [],
    );
  });

  it("reports validation failures with camelCase keys to the client", async () => {
    const { client } = await signedInClient();
    const error = await client
      .request('mutation { createNote(input: { title: " ", dueOn: "2024-02-30" }) { id } }')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).response.errors).toEqual([
      expect.objectContaining({
        message: "Validation failed",
        extensions: {
          code: "validation_failed",
          status: 422,
          fields: { title: ["can't be blank"], dueOn: ["is not a valid date"] },
        },
      }),
    ]);
  });

  it("treats another user's note as missing", async () => {
    const ada = await signedInClient();
    const bob = await signedInClient();
    const { createNote } = await ada.client.request<{ createNote: Note }>(
      'mutation { createNote(input: { title: "Ada\'s" }) { id } }',
    );
    const shown = await bob.client.request<{ note: Note | null }>(
      "query ($id: ID!) { note(id: $id) { id } }",
      { id: createNote.id },
    );
    expect(shown).toEqual({ note: null });
    expect(await bob.client.request("{ notes { id } }")).toEqual({ notes: [] });
    const refused = await bob.client
      .request('mutation ($id: ID!) { updateNote(id: $id, input: { title: "Bob\'s" }) { id } }', {
        id: createNote.id,
      })
      .catch((caught: unknown) => caught as ClientError);
    expect(refused.response.errors?.[0]).toMatchObject({
      message: "Not found",
      extensions: { code: "not_found", status: 404 },
    });
    expect(
      await server.query("SELECT title FROM notes WHERE id = ?", Number(createNote.id)),
    ).toEqual([{ title: "Ada's" }]);
  });

  it("answers 401 with WWW-Authenticate: Bearer without a token", async () => {
    const anonymous = new GraphQLClient(`${server.url}/graphql`);
    const error = (await anonymous
      .request("{ notes { id } }")
      .catch((caught: unknown) => caught)) as ClientError;
    expect(error).toBeInstanceOf(ClientError);
    expect(error.response.status).toBe(401);
    const raw = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer not-a-token" },
      body: JSON.stringify({ query: "{ notes { id } }" }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get("www-authenticate")).toBe("Bearer");
    expect(await raw.json()).toEqual({
      error: { code: "unauthenticated", message: "Unauthorized", status: 401 },
    });
  });

  it("refuses a query deeper than the limit", async () => {
    const { client } = await signedInClient();
    const error = (await client
      .request(
        '{ __type(name: "Note") { fields { type { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } }',
      )
      .catch((caught: unknown) => caught)) as ClientError;
    expect(error.response.errors?.[0]).toMatchObject({
      message: "Query depth limit of 8 exceeded, found 9.",
      extensions: { code: "query_too_deep" },
    });
  });
});
