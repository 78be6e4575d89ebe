// Operation texts held to their size, token and nesting limits before they are parsed: a big
// or deeply nested text is refused with a GraphQL error and a code, never parsed whole, never
// answered with the engine's own words, and large values still fit in variables.
import { type DocumentNode, Lexer, Source, TokenKind } from "graphql";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAXIMUM_NESTING,
  DEFAULT_MAXIMUM_QUERY_BYTES,
  DEFAULT_MAXIMUM_TOKENS,
  parseWithinLimits,
} from "../src/index.js";
import { setUp } from "./fixtures.js";

const tooLarge = (message: string) => ({
  errors: [{ message, extensions: { code: "query_too_large" } }],
});

/** What a refused parse threw, for its message and code. */
function refusal(parse: (source: string) => DocumentNode, text: string) {
  try {
    parse(text);
  } catch (error) {
    const { message, extensions } = error as { message: string; extensions?: unknown };
    return { message, extensions };
  }
  throw new Error("parsed");
}

/** Tokens of a text as graphql's lexer reads them (comments are not tokens). */
function tokensOf(text: string): number {
  const lexer = new Lexer(new Source(text));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count += 1;
  return count;
}

describe("the size of the operation text", () => {
  it("refuses a 3.9 MB operation inside a 4 MiB body without parsing it", async () => {
    const { send, rows } = await setUp({ maximumBodyBytes: 4 * 1024 * 1024 });
    const answer = await send(
      `mutation { createNote(input: { title: "x" }) { id } } # ${"x".repeat(3_900_000)}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(tooLarge("Query size limit of 65536 bytes exceeded."));
    expect(rows("SELECT id FROM notes")).toEqual([]);
  });

  it("counts UTF-8 bytes, not characters", async () => {
    const { send } = await setUp();
    const text = (characters: number) => `{ notes { id } } # ${"é".repeat(characters)}`;
    // 32,000 two-byte characters fit in 64 KiB; 33,000 (66,000 bytes in 33,020 characters) do not.
    expect((await send(text(32_000))).body).toEqual({ data: { notes: [] } });
    expect((await send(text(33_000))).body).toEqual(
      tooLarge("Query size limit of 65536 bytes exceeded."),
    );
  });

  it("refuses an operation sent with GET the same way", async () => {
    const context = await setUp();
    const query = `{ notes { id } } # ${"x".repeat(DEFAULT_MAXIMUM_QUERY_BYTES)}`;
    const response = await context.api.handle(
      new Request(`http://localhost/graphql?query=${encodeURIComponent(query)}`, {
        headers: { authorization: "Bearer ada-token" },
      }),
    );
    expect(await response.json()).toEqual(tooLarge("Query size limit of 65536 bytes exceeded."));
  });

  it("still takes a 2,000,000-byte text value in variables, in a body cap raised for it", async () => {
    const { send, rows } = await setUp({ maximumBodyBytes: 4 * 1024 * 1024 });
    const body = "é".repeat(1_000_000);
    const answer = await send(
      'mutation ($body: String) { createNote(input: { title: "long", body: $body }) { id } }',
      { variables: { body } },
    );
    expect(answer.body.errors).toBeUndefined();
    expect(rows("SELECT length(body) AS length FROM notes")).toEqual([{ length: 1_000_000 }]);
  });

  it("takes another size as an option", async () => {
    const { send } = await setUp({ maximumQueryBytes: 20 });
    expect((await send("{ notes { id } }")).body).toEqual({ data: { notes: [] } });
    expect((await send("{ notes { id title } }")).body).toEqual(
      tooLarge("Query size limit of 20 bytes exceeded."),
    );
  });
});

describe("the tokens of the operation text", () => {
  /** `{ notes { id id id ... } }` with exactly `count` tokens. */
  const withTokens = (count: number) => `{ notes { ${"id ".repeat(count - 5)}} }`;

  it("parses 2,000 tokens and refuses 2,001, saying where", async () => {
    const { send } = await setUp();
    expect(tokensOf(withTokens(2_000))).toBe(2_000);
    // Within the token limit the field limit has its say (1,995 fields).
    expect((await send(withTokens(2_000))).body.errors[0].extensions.code).toBe("query_too_wide");
    const over = withTokens(2_001);
    expect((await send(over)).body).toEqual({
      errors: [
        {
          message: "Query token limit of 2000 exceeded.",
          // The 2,001st token is the last brace.
          locations: [{ line: 1, column: over.length }],
          extensions: { code: "query_too_large" },
        },
      ],
    });
  });

  it("bounds every text the size limit lets through", () => {
    // The largest texts the size limit admits, of the cheapest tokens and of the costliest
    // ones: each is refused by its token count or nesting before the parser builds anything,
    // or holds few enough tokens to parse. Comments are no tokens, and cost the lexer one pass.
    const parse = parseWithinLimits();
    const fill = (unit: string, around: [string, string] = ["{ notes(limit: ", ") { id } }"]) =>
      around[0] +
      unit.repeat(
        Math.floor(
          (DEFAULT_MAXIMUM_QUERY_BYTES - around[0].length - around[1].length) / unit.length,
        ),
      ) +
      around[1];
    const largest = {
      names: fill("a ", ["{ notes { ", "} }"]),
      punctuators: fill("!"),
      commas: fill(","),
      brackets: fill("["),
      braces: fill("{", ["", ""]),
      aString: `{ notes(limit: "${"x".repeat(DEFAULT_MAXIMUM_QUERY_BYTES - 40)}") { id } }`,
      comments: `{ notes { id } } ${"#\n".repeat((DEFAULT_MAXIMUM_QUERY_BYTES - 20) / 2)}`,
    };
    for (const [shape, text] of Object.entries(largest)) {
      expect(new TextEncoder().encode(text).byteLength, shape).toBeLessThanOrEqual(
        DEFAULT_MAXIMUM_QUERY_BYTES,
      );
      let document: DocumentNode | undefined;
      let code: unknown;
      try {
        document = parse(text);
      } catch (error) {
        code = (error as { extensions?: { code?: unknown } }).extensions?.code;
      }
      if (document) {
        expect(tokensOf(text), shape).toBeLessThanOrEqual(DEFAULT_MAXIMUM_TOKENS);
      } else {
        // Refused by a limit, or (commas being no tokens) by a syntax error among few tokens.
        expect(
          code === "query_too_large" ||
            code === "query_too_deep" ||
            tokensOf(text) <= DEFAULT_MAXIMUM_TOKENS,
          shape,
        ).toBe(true);
      }
    }
    expect(refusal(parse, largest.names).message).toBe("Query token limit of 2000 exceeded.");
    expect(refusal(parse, largest.brackets).message).toBe("Query nesting limit of 256 exceeded.");
    expect(parse(largest.aString).definitions).toHaveLength(1);
    expect(parse(largest.comments).definitions).toHaveLength(1);
  });

  it("takes another token limit as an option", async () => {
    const { send } = await setUp({ maximumTokens: 6 });
    expect((await send("{ notes { id } }")).body).toEqual({ data: { notes: [] } });
    expect((await send("{ notes { id title } }")).body.errors[0].message).toBe(
      "Query token limit of 6 exceeded.",
    );
  });
});

describe("the nesting of the operation text", () => {
  const listOf = (depth: number) =>
    `{ notes(limit: ${"[".repeat(depth)}1${"]".repeat(depth)}) { id } }`;

  it("refuses a list literal nested 5,000 deep with a clear error, not the engine's", async () => {
    const { send } = await setUp();
    const answer = await send(listOf(5_000));
    expect(answer.body).toEqual({
      errors: [
        {
          message: "Query nesting limit of 256 exceeded.",
          // The 255th bracket, after the query's brace and the argument's parenthesis.
          locations: [{ line: 1, column: "{ notes(limit: ".length + 255 }],
          extensions: { code: "query_too_deep" },
        },
      ],
    });
  });

  it("parses 256 levels (here a list refused by its type) and refuses 257", async () => {
    const { send } = await setUp();
    // The query's braces and the argument's parentheses are two levels.
    const fits = await send(listOf(DEFAULT_MAXIMUM_NESTING - 2));
    expect(fits.body.errors[0].message).toMatch(/^Int cannot represent non-integer value: \[/);
    const over = await send(listOf(DEFAULT_MAXIMUM_NESTING - 1));
    expect(over.body.errors[0].message).toBe("Query nesting limit of 256 exceeded.");
  });

  it("refuses deep nesting in a variable's default value and in an unclosed text alike", async () => {
    const { send } = await setUp();
    for (const text of [
      `query ($x: [Int] = ${"[".repeat(10_000)}${"]".repeat(10_000)}) { notes { id } }`,
      `mutation { createNote(input: { title: "x", tags: ${"{ a: ".repeat(5_000)}`,
    ]) {
      const answer = await send(text);
      expect(answer.body.errors).toEqual([
        expect.objectContaining({
          message: "Query nesting limit of 256 exceeded.",
          extensions: { code: "query_too_deep" },
        }),
      ]);
    }
  });

  it("takes another nesting limit as an option", async () => {
    const { send } = await setUp({ maximumNesting: 2 });
    expect((await send("{ notes { id } }")).body).toEqual({ data: { notes: [] } });
    expect((await send("{ notes(limit: [1]) { id } }")).body).toEqual({
      errors: [
        {
          message: "Query nesting limit of 2 exceeded.",
          locations: [{ line: 1, column: 16 }],
          extensions: { code: "query_too_deep" },
        },
      ],
    });
  });
});

describe("deeply nested variables", () => {
  /** Sends a body as text: JSON.stringify cannot write a value this deep. */
  const sendRaw = async (context: Awaited<ReturnType<typeof setUp>>, body: string) => {
    const response = await context.api.handle(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer ada-token" },
        body,
      }),
    );
    return { status: response.status, text: await response.text() };
  };
  const deepArray = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;

  it.each([
    [
      "a JSON variable",
      'mutation ($t: JSON) { createNote(input: { title: "x", tags: $t }) { id } }',
      "tags: recursion limit exceeded",
    ],
    [
      "a String variable",
      "mutation ($t: String!) { createNote(input: { title: $t }) { id } }",
      'Variable "$t" has invalid value: not of type "String!", and too large to describe.',
    ],
    [
      "an input variable",
      "mutation ($i: NoteCreateInput!) { createNote(input: $i) { id } }",
      'Variable "$i" has invalid value: not of type "NoteCreateInput!", and too large to describe.',
    ],
    ["a variable the operation does not declare", "{ notes { id } }", null],
  ])("answers 100,000 levels in %s with a clear error", async (_case, query, message) => {
    // 200 KB of brackets: over the default body cap, raised to reach the variables' own guard.
    const context = await setUp({ maximumBodyBytes: 4 * 1024 * 1024 });
    const variable = query.match(/\$(\w+)/)?.[1] ?? "unused";
    const answer = await sendRaw(
      context,
      `{"query":${JSON.stringify(query)},"variables":{"${variable}":${deepArray}}}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.text).not.toMatch(/call stack|RangeError/i);
    const body = JSON.parse(answer.text);
    if (message === null) expect(body).toEqual({ data: { notes: [] } });
    else expect(body.errors[0].message).toBe(message);
    expect(context.rows("SELECT id FROM notes")).toEqual([]);
  });
});
