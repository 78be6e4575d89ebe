import { richTextSanitizer } from "@tessera/sanitizer";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  formOf,
  integerOutOfRange,
  invalidText,
  validBody,
  validInput,
} from "../src/arbitraries.js";
import {
  createTableSql,
  decodeForm,
  decodeJsonCreate,
  decodeJsonUpdate,
  defineModel,
  encodeRecord,
  type Field,
  parseDeclaration,
  parseDeclarations,
  withRichText,
} from "../src/index.js";

// Every type that takes input, required and optional (booleans are never optional).
const DECLARATIONS = [
  "s:string",
  "t:text?",
  "r:rich_text",
  "i:integer",
  "f:float?",
  "b:bool",
  "d:date",
  "dt:datetime?",
  "tm:time",
  "dec:decimal?",
  "u:uuid^",
  "post:references",
  "j:json?",
  "e:enum:draft,review,published",
  "target:polymorphic:post,comment?",
  "s2:string?",
  "i2:integer?",
  "d2:date?",
  "j2:json",
  "e2:enum:a,b?",
];
const thing = defineModel("thing", DECLARATIONS, { richText: richTextSanitizer });
const fields = thing.fields;

const db = new Database(":memory:");
db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY); INSERT INTO users (id) VALUES (1);");
db.exec(createTableSql(thing).replaceAll(' REFERENCES "posts" ("id") ON DELETE CASCADE', ""));
afterAll(() => db.close());

function ok<T>(result: { ok: true; value: T } | { ok: false }): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result)}`);
  return result.value;
}

describe("round trip", () => {
  it("decode, store in SQLite, read, encode gives the body back; decoding that gives the same values", () => {
    const insert = db.prepare(
      `INSERT INTO things (user_id, ${fields.flatMap((f) => f.columns).join(", ")}) VALUES (1, ${fields.flatMap((f) => f.columns.map((c) => `@${c}`)).join(", ")}) RETURNING *`,
    );
    fc.assert(
      fc.property(validBody(fields), (body) => {
        const values = ok(decodeJsonCreate(fields, body)).values;
        db.exec("DELETE FROM things"); // `u` is unique, and runs may repeat a value
        const row = insert.get(values) as Record<string, unknown>;
        const output = encodeRecord(fields, row);
        for (const [key, value] of Object.entries(body)) expect(output[key]).toEqual(value);
        expect(ok(decodeJsonCreate(fields, output)).values).toEqual(values);
      }),
      { numRuns: 300 },
    );
  });
});

describe("form and JSON agree", () => {
  it("on the canonical text of every valid body", () => {
    fc.assert(
      fc.property(validBody(fields), (body) => {
        const fromJson = ok(decodeJsonCreate(fields, body)).values;
        const fromForm = ok(decodeForm(fields, formOf(fields, body))).values;
        expect(fromForm).toEqual(fromJson);
      }),
      { numRuns: 300 },
    );
  });
});

function single(declaration: string): Field {
  const parsed = parseDeclaration(declaration);
  if (!parsed.ok) throw new Error(parsed.reason);
  return withRichText([parsed.value], richTextSanitizer)[0]!;
}

const STRING_TYPED = new Set([
  "string",
  "text",
  "rich_text",
  "date",
  "datetime",
  "time",
  "decimal",
  "uuid",
]);

describe("invalid values", () => {
  const refusing = fields.filter((field) => invalidText(field) !== undefined);

  it.each(refusing.map((field) => [field.declaration, field] as const))(
    "%s: every refused text earns exactly its message, in forms and JSON",
    (_, field) => {
      const key = field.columns[0]!;
      fc.assert(
        fc.property(invalidText(field)!, ({ text, message }) => {
          const expected = {
            ok: false,
            status: 422,
            reason: "Validation failed",
            fields: { [key]: [message] },
          };
          expect(decodeForm([field], new URLSearchParams({ [key]: text }))).toEqual(expected);
          // In JSON, text for a string-typed field gets the same 422. A required number must be
          // a JSON number (400); an optional one takes a string that parses, then range-checks
          // it. A json field takes any JSON string as its value.
          const json = decodeJsonCreate([field], { [key]: text });
          if (STRING_TYPED.has(field.type)) expect(json).toEqual(expected);
          else if (field.type === "json") expect(json.ok).toBe(true);
          else if (field.optional && message.startsWith("must be")) expect(json).toEqual(expected);
          else expect(json).toMatchObject({ ok: false, status: 400 });
        }),
      );
    },
  );

  it("never throws on any body, however hostile", () => {
    fc.assert(
      fc.property(
        fc.anything(),
        fc.dictionary(
          fc.constantFrom(...fields.flatMap((f) => f.columns), "lock_version"),
          fc.anything(),
        ),
        (anything, object) => {
          for (const body of [anything, object]) {
            for (const result of [decodeJsonCreate(fields, body), decodeJsonUpdate(fields, body)]) {
              expect(typeof result.ok).toBe("boolean");
              if (!result.ok) expect([400, 422]).toContain(result.status);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("never throws on any form", () => {
    const keys = [...fields.flatMap((f) => f.columns), "lock_version"];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...keys), fc.string({ unit: "binary" }))),
        (entries) => {
          const result = decodeForm(fields, new URLSearchParams(entries));
          expect(result.ok || result.status === 422).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("gives integers beyond the range exactly one range message, on every path", () => {
    const required = single("n:integer");
    const optional = single("n:integer?");
    fc.assert(
      fc.property(integerOutOfRange, ({ text, message }) => {
        const expected = {
          ok: false,
          status: 422,
          reason: "Validation failed",
          fields: { n: [message] },
        };
        expect(decodeForm([required], new URLSearchParams({ n: text }))).toEqual(expected);
        expect(decodeJsonCreate([optional], { n: text })).toEqual(expected);
        expect(decodeJsonCreate([required], { n: Number(text) })).toEqual(expected);
        expect(decodeJsonUpdate([required], { n: Number(text) })).toEqual(expected);
      }),
    );
  });
});

describe("PATCH", () => {
  const patchable = fields.filter((field) => field.type !== "polymorphic");
  it("keeps missing keys, clears optional ones sent as null or blank, sets the rest", () => {
    fc.assert(
      fc.property(
        validBody(patchable),
        fc.func(fc.constantFrom("send", "omit", "null", "blank")),
        (body, choose) => {
          const patch: Record<string, unknown> = {};
          const expected: Record<string, unknown> = {};
          const full = ok(decodeJsonCreate(patchable, body)).values;
          for (const field of patchable) {
            const key = field.columns[0]!;
            const choice = choose(key);
            if (choice === "omit") continue;
            if (choice === "send" || !field.optional) {
              patch[key] = body[key];
              expected[key] = full[key];
            } else if (choice === "null") {
              patch[key] = null;
              expected[key] = null;
            } else {
              patch[key] = " ";
              // A blank string clears every optional field except json, where it is a value.
              expected[key] = field.type === "json" ? '" "' : null;
            }
          }
          expect(ok(decodeJsonUpdate(patchable, patch)).values).toEqual(expected);
        },
      ),
    );
  });
});

describe("declarations", () => {
  it("never throw, and every refusal has a message and a hint", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 30 }), { maxLength: 4 }), (declarations) => {
        const result = parseDeclarations(declarations);
        if (!result.ok) {
          expect(result.reason.length).toBeGreaterThan(0);
          expect(result.hint.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("the arbitraries give input for every field that takes JSON", () => {
    for (const field of fields) {
      const sample = fc.sample(validInput(field), 1)[0]!;
      expect(Object.keys(sample)).toEqual(field.columns);
    }
  });
});
