// A variable that does not fit its type is worded by graphql-js, which prints the value whole
// once per error it finds; one too large to print is refused with its name and type only.
import { describe, expect, it } from "vitest";
import { setUp } from "./fixtures.js";

const CREATE = "mutation ($input: NoteCreateInput!) { createNote(input: $input) { id } }";
const TOO_LARGE =
  'Variable "$input" has invalid value: not of type "NoteCreateInput!", and too large to describe.';

/** A body cap raised above the default 128 KiB, for the values of a megabyte below. */
const LARGE_BODY_BYTES = 4 * 1024 * 1024;

/** Fields `f0`, `f1`... that no input type has, each set to 1. */
const unknownFields = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, n) => [`f${n}`, 1]));

describe("an invalid variable too large to describe", () => {
  it("is refused with its name and type, in a short answer, and nothing runs", async () => {
    const { send, rows } = await setUp();
    // graphql-js would print these 2,000 fields in each of 50 errors.
    const answer = await send(CREATE, {
      variables: { input: { title: "x", ...unknownFields(2_000) } },
    });
    expect(answer.body).toEqual({
      errors: [{ message: TOO_LARGE, locations: [{ line: 1, column: 11 }] }],
    });
    expect(rows("SELECT id FROM notes")).toEqual([]);
  });

  it("is refused so when a missing field sits beside a long text", async () => {
    const { send } = await setUp({ maximumBodyBytes: LARGE_BODY_BYTES });
    const answer = await send(CREATE, {
      variables: { input: { body: "b".repeat(1_000_000) } },
    });
    expect(answer.body.errors).toEqual([expect.objectContaining({ message: TOO_LARGE })]);
    expect(JSON.stringify(answer.body).length).toBeLessThan(1_000);
  });
});

describe("variables graphql-js describes or takes", () => {
  it("words a small invalid value as graphql-js does", async () => {
    const { send } = await setUp();
    const answer = await send(CREATE, {
      variables: { input: { title: "x", ...unknownFields(2) } },
    });
    expect(answer.body.errors.map((error: { message: string }) => error.message)).toEqual([
      'Variable "$input" has invalid value: Expected value of type "NoteCreateInput" not to include unknown field "f0", found: { title: "x", f0: 1, f1: 1 }.',
      'Variable "$input" has invalid value: Expected value of type "NoteCreateInput" not to include unknown field "f1", found: { title: "x", f0: 1, f1: 1 }.',
    ]);
  });

  it("takes a valid value of any size: a JSON list of 100,000 items", async () => {
    const { send, rows } = await setUp({ maximumBodyBytes: LARGE_BODY_BYTES });
    const tags = Array.from({ length: 100_000 }, (_, n) => n);
    const answer = await send(
      'mutation ($tags: JSON) { createNote(input: { title: "x", tags: $tags }) { id } }',
      { variables: { tags } },
    );
    expect(answer.body.errors).toBeUndefined();
    expect(JSON.parse(String(rows("SELECT tags FROM notes")[0]?.tags))).toEqual(tags);
  });
});
