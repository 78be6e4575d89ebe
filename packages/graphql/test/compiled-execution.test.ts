// With `compileQuery`, operations run as graphql-jit compiled them: once per operation, kept
// with the cached document, variables refused in graphql-js's words, graphql-js as fallback.
import { GraphQLError } from "graphql";
import { compileQuery } from "graphql-jit";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import type { CompileQuery } from "../src/index.js";
import { setUp } from "./fixtures.js";

/** graphql-jit's compiler, counting its compilations and the runs of what it compiled. */
function countingCompiler(fail: false | "errors" | "throws" = false) {
  const counts = { compiled: [] as (string | undefined)[], runs: 0 };
  const compile: CompileQuery = (schema, document, operationName) => {
    counts.compiled.push(operationName);
    if (fail === "throws") throw new Error("cannot compile this");
    if (fail === "errors") return { errors: [new GraphQLError("not here")] };
    const compiled = compileQuery(schema, document, operationName);
    if (!("query" in compiled)) return compiled;
    return {
      query(root, context, variables) {
        counts.runs += 1;
        return compiled.query(root, context, variables);
      },
    };
  };
  return { compile, counts };
}

const CREATE = `mutation ($input: NoteCreateInput!) { createNote(input: $input) { id title wordCount } }`;

describe("compiled operations", () => {
  it("compile once per operation text and answer what graphql-js answers", async () => {
    const interpreted = await setUp();
    const { compile, counts } = countingCompiler();
    const compiled = await setUp({ compileQuery: compile });
    for (const context of [interpreted, compiled]) {
      for (const title of ["one", "two"]) {
        await context.send(CREATE, { variables: { input: { title, wordCount: 2 ** 40 } } });
      }
    }
    const list = "{ notes(limit: 5) { id title wordCount pinned createdAt } }";
    const expected = await interpreted.send(list);
    expect(expected.body.data.notes).toHaveLength(2);
    expect(await compiled.send(list)).toEqual(expected);
    expect(await compiled.send(list)).toEqual(expected);
    expect(counts.compiled).toEqual([undefined, undefined]);
    expect(counts.runs).toBe(4);
  });

  it("compile each named operation of a document apart", async () => {
    const { compile, counts } = countingCompiler();
    const { send } = await setUp({ compileQuery: compile });
    const document = "query Few { notes(limit: 1) { id } } query Many { notes { id } }";
    const sendNamed = async (operationName: string) =>
      (await send(document, { operationName })).body;
    expect(await sendNamed("Few")).toEqual({ data: { notes: [] } });
    expect(await sendNamed("Many")).toEqual({ data: { notes: [] } });
    expect(await sendNamed("Few")).toEqual({ data: { notes: [] } });
    expect(counts.compiled).toEqual(["Few", "Many"]);
    expect(counts.runs).toBe(3);
  });

  it("refuse a variable in graphql-js's words without running the compiled operation", async () => {
    const { compile, counts } = countingCompiler();
    const { send, rows } = await setUp({ compileQuery: compile });
    const answer = await send(CREATE, {
      variables: { input: { title: "x", wordCount: "many" } },
    });
    expect(answer.body).toEqual({
      errors: [
        expect.objectContaining({
          message:
            'Variable "$input" has invalid value at .wordCount: SafeInt cannot represent non-integer value: many',
        }),
      ],
    });
    expect(counts.runs).toBe(0);
    expect(rows("SELECT id FROM notes")).toEqual([]);
  });

  it.each(["errors", "throws"] as const)(
    "run an operation whose compilation %s through graphql-js, and say why once",
    async (failure) => {
      const { compile, counts } = countingCompiler(failure);
      const reasons: unknown[] = [];
      const { send, rows } = await setUp({
        compileQuery: compile,
        onNotCompiled: (reason) => reasons.push(reason),
      });
      for (const title of ["kept", "again"]) {
        const answer = await send(CREATE, { variables: { input: { title } } });
        expect(answer.body.data.createNote).toMatchObject({ title, wordCount: null });
      }
      expect(rows("SELECT title FROM notes")).toEqual([{ title: "kept" }, { title: "again" }]);
      expect(counts.compiled).toEqual([undefined]);
      expect(counts.runs).toBe(0);
      expect(reasons).toEqual([
        failure === "throws" ? new Error("cannot compile this") : new GraphQLError("not here"),
      ]);
    },
  );

  it("say on stderr, once, that operations run uncompiled, when no one else is told", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    onTestFinished(() => warn.mockRestore());
    const { compile } = countingCompiler("errors");
    const { send } = await setUp({ compileQuery: compile });
    await send(CREATE, { variables: { input: { title: "one" } } });
    expect((await send("{ notes { id } }")).body.data.notes).toHaveLength(1);
    expect(warn.mock.calls).toEqual([
      [
        "GraphQL: compileQuery could not compile an operation, which graphql-js runs instead, " +
          "more slowly (not here). Two copies of the graphql package are the usual cause.",
      ],
    ]);
  });
});
