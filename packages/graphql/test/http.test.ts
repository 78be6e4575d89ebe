// The handler over HTTP: authentication first, the body as the JSON API reads it, the depth
// and width limits, and failures that must not leak.
import { describe, expect, it, vi } from "vitest";
import { FRENCH, inFrench, languageOf } from "../../../test/support/language-headers.js";
import { DEFAULT_MAXIMUM_GRAPHQL_BODY_BYTES } from "../src/index.js";
import { EXECUTOR_OPTIONS, setUp } from "./fixtures.js";

const handleRaw = async (
  context: Awaited<ReturnType<typeof setUp>>,
  init: RequestInit & { path?: string },
) => {
  const response = await context.api.handle(
    new Request(`http://localhost${init.path ?? "/graphql"}`, init),
  );
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : undefined,
  };
};

describe("authentication", () => {
  it.each([
    ["no token", null],
    ["a wrong token", "nobody"],
  ])(
    "answers %s with 401, WWW-Authenticate: Bearer and the JSON envelope",
    async (_case, token) => {
      const context = await setUp();
      const answer = await context.send('mutation { createNote(input: { title: "x" }) { id } }', {
        token,
      });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe("Bearer");
      expect(answer.body).toEqual({
        error: { code: "unauthenticated", message: "Unauthorized", status: 401 },
      });
      expect(context.rows("SELECT id FROM notes")).toEqual([]);
    },
  );

  it("does not read the body of an unauthenticated request", async () => {
    const context = await setUp();
    const request = new Request("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ notes { id } }" }),
    });
    const response = await context.api.handle(request);
    expect(response.status).toBe(401);
    expect(request.bodyUsed).toBe(false);
  });
});

describe("the answer's language", () => {
  it("is the request's locale, written into a successful answer by the route", async () => {
    const context = await setUp();
    const answer = await context.send("{ notes { id } }", { locale: FRENCH });
    expect(languageOf(answer)).toEqual(inFrench(200));
    const unchosen = await context.send("{ notes { id } }");
    expect(languageOf(unchosen)).toEqual([200, null, null]);
  });
});

describe("the request body", () => {
  const ada = { authorization: "Bearer ada-token" };

  it("answers a body that is not JSON as the JSON API does", async () => {
    const context = await setUp();
    const text = await handleRaw(context, {
      method: "POST",
      headers: { ...ada, "content-type": "text/plain" },
      body: "{ notes { id } }",
    });
    expect(text).toMatchObject({
      status: 400,
      body: {
        error: {
          code: "bad_request",
          message:
            "Failed to deserialize the JSON body into the target type: expected `Content-Type: application/json`",
          status: 400,
        },
      },
    });
    const broken = await handleRaw(context, {
      method: "POST",
      headers: { ...ada, "content-type": "application/json" },
      body: "{",
    });
    expect(broken.body.error.message).toBe(
      "Failed to deserialize the JSON body into the target type: the body is not valid JSON",
    );
  });

  it("caps bodies at 128 KiB, variables included, and takes more when told", async () => {
    expect(DEFAULT_MAXIMUM_GRAPHQL_BODY_BYTES).toBe(128 * 1024);
    const create = "mutation ($title: String!) { createNote(input: { title: $title }) { id } }";
    const title = "t".repeat(1_900_000);
    const refused = await (await setUp()).send(create, { variables: { title } });
    expect(refused).toMatchObject({
      status: 413,
      body: {
        error: {
          code: "payload_too_large",
          message: "Request body is too large (maximum is 131072 bytes)",
          status: 413,
        },
      },
    });
    const raised = await setUp({ maximumBodyBytes: 4 * 1024 * 1024 });
    const taken = await raised.send(create, { variables: { title } });
    expect(taken.status).toBe(200);
    expect(taken.body.errors).toBeUndefined();
    expect(raised.rows("SELECT length(title) AS length FROM notes")).toEqual([
      { length: 1_900_000 },
    ]);
  });

  it("refuses a body over the cap with a 413 before parsing it", async () => {
    const context = await setUp({ maximumBodyBytes: 100 });
    const answer = await context.send(`{ notes { id } } # ${"x".repeat(100)}`);
    expect(answer.status).toBe(413);
    expect(answer.body.error).toEqual({
      code: "payload_too_large",
      message: "Request body is too large (maximum is 100 bytes)",
      status: 413,
    });
  });

  it("stops reading a streamed 3.9 MB body at the cap: its later chunks are never pulled", async () => {
    const context = await setUp();
    const chunk = new TextEncoder().encode(`{"query":"{ notes { id } } #${"x".repeat(64 * 1024)}`);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled += 1;
          controller.enqueue(chunk); // 60 of these would be 3.9 MB
          if (pulled === 60) controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const answer = await handleRaw(context, {
      method: "POST",
      headers: { ...ada, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(answer).toMatchObject({
      status: 413,
      body: { error: { code: "payload_too_large", status: 413 } },
    });
    // Each chunk is a little over 64 KiB: the second crosses 128 KiB, and reading stops there.
    expect(pulled).toBe(2);
  });

  it("answers a JSON object without a query with graphql-http's 400", async () => {
    const context = await setUp();
    const answer = await handleRaw(context, {
      method: "POST",
      headers: { ...ada, "content-type": "application/json" },
      body: JSON.stringify({ variables: {} }),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ errors: [{ message: "Missing query" }] });
  });

  it("runs a query sent with GET, and refuses a mutation sent with GET", async () => {
    const context = await setUp();
    const query = await handleRaw(context, {
      method: "GET",
      headers: ada,
      path: `/graphql?query=${encodeURIComponent("{ notes { id } }")}`,
    });
    expect(query).toMatchObject({ status: 200, body: { data: { notes: [] } } });
    const mutation = await handleRaw(context, {
      method: "GET",
      headers: ada,
      path: `/graphql?query=${encodeURIComponent('mutation { createNote(input: { title: "x" }) { id } }')}`,
    });
    expect(mutation.status).toBe(405);
    expect(mutation.headers.get("allow")).toBe("POST");
    expect(mutation.headers.get("content-type")).toMatch(/^application\/json/);
    expect(mutation.body).toEqual({ errors: [{ message: "Cannot perform mutations over GET" }] });
    expect(context.rows("SELECT id FROM notes")).toEqual([]);
  });

  it.each([
    [
      "an Accept it cannot serve",
      { method: "POST", headers: { accept: "text/plain" } },
      406,
      "Not acceptable: accept application/graphql-response+json or application/json",
    ],
    [
      "a JSON type it does not take",
      { method: "POST", headers: { "content-type": "application/vnd.api+json" } },
      415,
      "Unsupported content type: send application/json",
    ],
  ])("answers %s in the JSON envelope", async (_case, request, status, message) => {
    const context = await setUp();
    const answer = await handleRaw(context, {
      method: request.method,
      headers: { ...ada, "content-type": "application/json", ...request.headers },
      body: JSON.stringify({ query: "{ notes { id } }" }),
    });
    expect(answer.status).toBe(status);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.body).toEqual({
      error: {
        code: status === 406 ? "not_acceptable" : "unsupported_media_type",
        message,
        status,
      },
    });
  });
});

describe("query limits", () => {
  /** `__type` selections nested `depth` deep in all (ofType repeated). */
  const nested = (depth: number) =>
    `{ __type(name: "Note") { fields { type ${"{ ofType ".repeat(depth - 4)}{ name }${" }".repeat(depth - 4)} } } }`;

  it("accepts 8 levels and refuses 9 before anything runs", async () => {
    const { send } = await setUp();
    const eight = await send(nested(8));
    expect(eight.body.errors).toBeUndefined();
    expect(eight.body.data.__type.fields).toHaveLength(12);
    const nine = await send(nested(9));
    expect(nine.status).toBe(200);
    expect(nine.body).toEqual({
      errors: [
        {
          message: "Query depth limit of 8 exceeded, found 9.",
          extensions: { code: "query_too_deep" },
        },
      ],
    });
  });

  it("counts fragments' fields as if written in place", async () => {
    const { send } = await setUp();
    const answer = await send(
      `query { ...Deep } fragment Deep on Query { __type(name: "Note") { fields { type { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } }`,
    );
    expect(answer.body.errors[0].message).toBe("Query depth limit of 8 exceeded, found 9.");
  });

  it("refuses more than 200 selected fields, aliases counted one by one", async () => {
    const { send, rows } = await setUp();
    const aliases = (count: number) =>
      Array.from({ length: count }, (_, n) => `n${n}: notes(limit: 100) { id }`).join(" ");
    const wide = await send(`{ ${aliases(101)} }`);
    expect(wide.body).toEqual({
      errors: [
        {
          message: "Query Cost limit of 200 exceeded, found 202.",
          extensions: { code: "query_too_wide" },
        },
      ],
    });
    const fits = await send(`{ ${aliases(100)} }`);
    expect(Object.keys(fits.body.data)).toHaveLength(100);
    const mutations = Array.from(
      { length: 101 },
      (_, n) => `c${n}: createNote(input: { title: "x" }) { id }`,
    ).join(" ");
    const refused = await send(`mutation { ${mutations} }`);
    expect(refused.body.errors[0].extensions.code).toBe("query_too_wide");
    expect(rows("SELECT id FROM notes")).toEqual([]);
  });

  it("counts an inline fragment once and a spread twice, besides what they select", async () => {
    const { send } = await setUp({ maximumFields: 6 });
    const answer = await send(
      "{ ...F ... on Query { notes { id } } } fragment F on Query { notes { id } }",
    );
    expect(answer.body.errors).toEqual([
      {
        message: "Query Cost limit of 6 exceeded, found 7.",
        extensions: { code: "query_too_wide" },
      },
    ]);
  });

  it("measures a fragment once, however many times it is spread", async () => {
    const { send } = await setUp();
    // Each fragment spreads the next twice: 2^40 spreads of the last one, measured 41 times.
    const levels = 40;
    const fragments = Array.from(
      { length: levels },
      (_, n) => `fragment F${n} on Query { ...F${n + 1} ...F${n + 1} }`,
    );
    let cost = 2; // notes and id
    for (let n = 0; n < levels; n++) cost = 2 * (2 + cost);
    const answer = await send(
      `{ ...F0 } ${fragments.join(" ")} fragment F${levels} on Query { notes { id } }`,
    );
    expect(answer.body.errors).toEqual([
      {
        message: `Query Cost limit of 200 exceeded, found ${2 + cost}.`,
        extensions: { code: "query_too_wide" },
      },
    ]);
  });

  it("runs the limits before graphql's own rules: a refused operation gets their errors only", async () => {
    const { send } = await setUp();
    // graphql compares fields of one name pairwise; 400 of them (and an unknown one) are
    // refused by the field limit before that comparison runs.
    const answer = await send(`{ ${"notes { id } ".repeat(400)} secrets }`);
    expect(answer.body).toEqual({
      errors: [
        {
          message: "Query Cost limit of 200 exceeded, found 801.",
          extensions: { code: "query_too_wide" },
        },
      ],
    });
  });

  it("takes other limits as options", async () => {
    const { send } = await setUp({ maximumDepth: 2, maximumFields: 3 });
    expect((await send("{ notes { id title } }")).body.data).toEqual({ notes: [] });
    expect((await send("{ notes { id title userId } }")).body.errors[0].message).toBe(
      "Query Cost limit of 3 exceeded, found 4.",
    );
    expect(
      (await send('{ __type(name: "Note") { fields { name } } }')).body.errors[0].message,
    ).toBe("Query depth limit of 2 exceeded, found 3.");
  });
});

describe("failures", () => {
  it("hides an unexpected error behind `Internal server error` and reports it", async () => {
    const onError = vi.fn();
    const context = await setUp({ onError });
    context.database.connection.exec("DROP TABLE notes");
    const answer = await context.send("{ notes { id } }");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: null,
      errors: [
        {
          message: "Internal server error",
          // graphql-jit's errors carry the path but not the locations.
          ...(EXECUTOR_OPTIONS.compileQuery ? {} : { locations: expect.any(Array) }),
          path: ["notes"],
          extensions: { code: "internal_error", status: 500 },
        },
      ],
    });
    expect(JSON.stringify(answer.body)).not.toContain("no such table");
    expect(onError).toHaveBeenCalledTimes(1);
    expect(String(onError.mock.calls[0]![0])).toMatch(/no such table: notes/);
  });
});

describe("an account deleted while its request runs", () => {
  it("answers unauthenticated (the JSON API's 401) and writes nothing", async () => {
    const context = await setUp();
    // Ada authenticated, then her account went before the write reached the database.
    await context.database.run("DELETE FROM users WHERE email = 'ada@example.com'");
    const answer = await context.send('mutation { createNote(input: { title: "x" }) { id } }');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toBeNull();
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        message: "Unauthorized",
        extensions: { code: "unauthenticated", status: 401 },
      }),
    ]);
    expect(context.rows("SELECT id FROM notes")).toEqual([]);
  });
});
