// Repeated operations skip parsing and validation; the cache stays within its budget.
import { GraphQLError, specifiedRules } from "graphql";
import { describe, expect, it } from "vitest";
import { documentCache, parseWithinLimits, recordSchema } from "../src/index.js";
import { noteModel, postModel } from "./fixtures.js";

const schema = recordSchema([postModel, noteModel].map((model) => ({ model, store: {} as never })));

describe("documentCache", () => {
  it("parses a text once and validates its document once", () => {
    const cache = documentCache();
    const document = cache.parse("{ notes { id } }");
    expect(cache.parse("{ notes { id } }")).toBe(document);
    const errors = cache.validate(schema, document, specifiedRules);
    expect(errors).toEqual([]);
    expect(cache.validate(schema, document, specifiedRules)).toBe(errors);
    const wrong = cache.parse("{ nothing }");
    expect(cache.validate(schema, wrong, specifiedRules).map((error) => error.message)).toEqual([
      'Cannot query field "nothing" on type "Query".',
    ]);
  });

  it("throws the same syntax error for a text again", () => {
    const cache = documentCache();
    const first = (() => {
      try {
        cache.parse("{ notes {");
      } catch (error) {
        return error;
      }
    })();
    expect(first).toBeInstanceOf(GraphQLError);
    expect(() => cache.parse("{ notes {")).toThrow(first as Error);
  });

  it("holds texts to the operation limits, or parses as it is told", () => {
    const deep = `{ notes(limit: ${"[".repeat(300)}1${"]".repeat(300)}) { id } }`;
    expect(() => documentCache().parse(deep)).toThrow("Query nesting limit of 256 exceeded.");
    const lenient = documentCache({ parse: parseWithinLimits({ maximumNesting: 400 }) });
    expect(lenient.parse(deep).definitions).toHaveLength(1);
  });

  it("keeps at most its budget of characters, least recently used out first", () => {
    const cache = documentCache({ maximumCharacters: 40 });
    const a = cache.parse("{ notes { id } }"); // 16 characters
    const b = cache.parse("{ notes { title } }"); // 19
    expect(cache.parse("{ notes { id } }")).toBe(a);
    cache.parse("{ posts { id } }"); // 16: over 40 with b, the least recently used
    expect(cache.parse("{ notes { id } }")).toBe(a);
    expect(cache.parse("{ notes { title } }")).not.toBe(b);
    const long = `{ notes { id } } ${"#".repeat(50)}`;
    expect(cache.parse(long)).not.toBe(cache.parse(long));
  });
});
