// Operations an attacker sends to POST /graphql on purpose, over real HTTP against the running
// app. A body over 128 KiB (a 3.9 MB operation text, variables nested 100,000 deep, an input of
// 150,000 unknown fields) is refused with a 413 before it is parsed; within the cap, a list
// literal 5,000 deep or an operation over 64 KiB gets a GraphQL error that says which limit,
// never the engine's words. Nothing is written; the app keeps answering meanwhile. (How long
// /api/health takes during them is measured by bench/graphql-hostile.bench.ts, not here.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1" });
  const headers = { "content-type": "application/json", "x-forwarded-for": newClientAddress() };
  const body = JSON.stringify({
    email: `graphql.hostile.${Date.now()}@example.com`,
    password: "correct horse battery",
  });
  expect(
    (await fetch(`${server.url}/api/auth/signup`, { method: "POST", headers, body })).status,
  ).toBe(201);
  const issued = await fetch(`${server.url}/api/auth/token`, { method: "POST", headers, body });
  token = ((await issued.json()) as { token: string }).token;
});
afterAll(() => server.stop());

/** Posts a body as text (JSON.stringify cannot write a value 100,000 deep) to POST /graphql. */
async function postGraphql(body: string) {
  const response = await fetch(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body,
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) };
}

const noteCount = async () =>
  (await server.query<{ n: number }>("SELECT count(*) AS n FROM notes"))[0]!.n;

/** /api/health's answer, asked while `pending` is in flight. */
async function healthDuring(pending: Promise<unknown>) {
  const health = await fetch(`${server.url}/api/health`);
  await pending;
  return { status: health.status, body: await health.json() };
}

const bodyTooLarge = {
  error: {
    code: "payload_too_large",
    message: "Request body is too large (maximum is 131072 bytes)",
    status: 413,
  },
};

describe("bodies over the 128 KiB cap", () => {
  const deepArray = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
  const create = (type: string, input: string) =>
    JSON.stringify(`mutation ($v: ${type}) { createNote(input: ${input}) { id } }`);
  const unknownFields = Array.from({ length: 150_000 }, (_, n) => `"f${n}":1`).join(",");

  it.each([
    [
      "a 3.9 MB operation",
      JSON.stringify({
        query: `mutation { createNote(input: { title: "big" }) { id } } #${"x".repeat(3_900_000)}`,
      }),
    ],
    [
      "a JSON value nested 100,000 deep",
      `{"query":${create("JSON", '{ title: "deep", tags: $v }')},"variables":{"v":${deepArray}}}`,
    ],
    [
      "an input of 150,000 unknown fields",
      `{"query":${create("NoteCreateInput!", "$v")},"variables":{"v":{"title":"x",${unknownFields}}}}`,
    ],
    [
      "a 2,000,000-byte text in variables",
      JSON.stringify({
        query:
          'mutation ($body: String) { createNote(input: { title: "long", body: $body }) { id } }',
        variables: { body: "é".repeat(1_000_000) },
      }),
    ],
  ])(
    "refuse %s with a 413 before parsing it, and /api/health answers meanwhile",
    async (_, body) => {
      const before = await noteCount();
      const refused = postGraphql(body);
      expect(await healthDuring(refused)).toEqual({ status: 200, body: { status: "ok" } });
      expect(await refused).toMatchObject({ status: 413, body: bodyTooLarge });
      expect(await noteCount()).toBe(before);
    },
  );
});

describe("operations within the cap", () => {
  it("refuses a list literal nested 5,000 deep with the nesting limit, not a stack overflow", async () => {
    const query = `{ notes(limit: ${"[".repeat(5_000)}1${"]".repeat(5_000)}) { id } }`;
    const answer = await postGraphql(JSON.stringify({ query }));
    expect(answer.status).toBe(200);
    expect(answer.text).not.toMatch(/call stack|RangeError/i);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        message: "Query nesting limit of 256 exceeded.",
        extensions: { code: "query_too_deep" },
      }),
    ]);
  });

  it("refuses a 100 KB operation with the operation's size limit", async () => {
    const query = `{ notes { id } } #${"x".repeat(100_000)}`;
    expect((await postGraphql(JSON.stringify({ query }))).body).toEqual({
      errors: [
        {
          message: "Query size limit of 65536 bytes exceeded.",
          extensions: { code: "query_too_large" },
        },
      ],
    });
  });

  it("still stores a 100,000-byte text sent in variables", async () => {
    const body = "é".repeat(50_000);
    const answer = await postGraphql(
      JSON.stringify({
        query:
          'mutation ($body: String) { createNote(input: { title: "long", body: $body }) { id } }',
        variables: { body },
      }),
    );
    expect(answer.body.errors).toBeUndefined();
    const id = Number(answer.body.data.createNote.id);
    const [row] = await server.query<{ body: string }>("SELECT body FROM notes WHERE id = ?", id);
    expect(row?.body).toBe(body);
  });
});
