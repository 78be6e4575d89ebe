// The JSON Schemas against the code they describe: every record encodeRecord writes validates
// against the record schema, and a real JSON Schema validator (Ajv, draft 2020-12, formats on)
// agrees with decodeJsonCreate / decodeJsonUpdate on a pool of values for every key of a model
// that has every type and modifier, except the cases listed in KNOWN_GAPS.
import { richTextSanitizer } from "@tessera/sanitizer";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validBody } from "../src/arbitraries.js";
import {
  createJsonSchema,
  decodeJsonCreate,
  decodeJsonUpdate,
  defineModel,
  encodeRecord,
  type Field,
  type JsonSchema,
  MAX_INTEGER,
  MAX_TEXT_BYTES,
  MIN_INTEGER,
  recordJsonSchema,
  updateJsonSchema,
} from "../src/index.js";

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
addFormats.default(ajv);
const validator = (schema: JsonSchema) => ajv.compile(schema);

const sample = defineModel(
  "sample",
  [
    "name:string",
    "nickname:string?",
    "code:string^",
    "summary:text",
    "notes:text?",
    "content:rich_text",
    "teaser:rich_text?",
    "count:integer",
    "quota:integer?",
    "ratio:float",
    "weight:float?",
    "active:bool",
    "born_on:date",
    "ends_on:date?",
    "starts_at:datetime",
    "ends_at:datetime?",
    "opens_at:time",
    "closes_at:time?",
    "price:decimal",
    "discount:decimal?",
    "external_id:uuid",
    "other_uuid:uuid?",
    "post:references",
    "parent:references:sample?",
    "target:polymorphic:post,comment",
    "subject:polymorphic:post,comment?",
    "cover:attachment?",
    "photos:attachments",
    "details:json",
    "extra:json?",
    "status:enum:draft,published",
    "mood:enum:calm,busy?",
    "lock_version:integer",
  ],
  { richText: richTextSanitizer },
);
const label = defineModel("label", ["public_id:token", "name:string^", "color:string?"]);

const UUID = "0f8fad5b-d9cb-469f-a165-70867728950e";
/** The smallest body decodeJsonCreate accepts for `sample`. */
const MINIMAL = {
  name: "n",
  code: "c",
  summary: "s",
  content: "<p>x</p>",
  count: 1,
  ratio: 1.5,
  born_on: "2024-02-29",
  starts_at: "2024-02-29 13:05",
  opens_at: "13:05",
  price: "1.00",
  external_id: UUID,
  post_id: 1,
  target_type: "post",
  target_id: 1,
  details: { a: 1 },
  status: "draft",
};

/** Values of every JSON type and of every text shape the types accept or refuse. */
const POOL: readonly unknown[] = [
  null,
  "",
  "   ",
  "abc",
  "é".repeat(MAX_TEXT_BYTES / 2 + 1),
  "\ud800",
  "a\u0000b",
  { "k\u0000": ["\ud800"] },
  0,
  5,
  -5,
  5.5,
  MAX_INTEGER,
  MIN_INTEGER,
  MAX_INTEGER + 2,
  MIN_INTEGER - 2,
  true,
  false,
  [],
  [1, "x"],
  {},
  { a: { b: [null] } },
  "7",
  "-7",
  "+7",
  " 7",
  "9007199254740993",
  "2.5",
  ".5",
  "1e3",
  "1e400",
  "x1",
  "12.50",
  "-1",
  "1.",
  "2024-02-29",
  "2023-02-29",
  "2024-13-01",
  "0000-02-29",
  "13:05",
  "13:05:09",
  "23:59:59",
  "24:00",
  "1:05",
  "13:05:60",
  "2024-02-29 13:05",
  "2024-02-29T13:05:09",
  "2023-02-30 10:00",
  "2024-02-29 13:05Z",
  "2024-02-29T13:05:09.5",
  UUID,
  UUID.toUpperCase(),
  `urn:uuid:${UUID}`,
  UUID.slice(1),
  "<p> </p>",
  "<p>hi</p>",
  "draft",
  "published",
  "calm",
  "post",
  "comment",
  "Draft",
];

/** The pool's strings no engine stores alike, and its json value with such a key. */
const UNSTORABLE_STRINGS: readonly unknown[] = ["\ud800", "a\u0000b"];
const unstorableKey = (value: unknown): boolean =>
  typeof value === "object" && value !== null && "k\u0000" in value;

const fieldOfKey = (key: string): Field =>
  sample.fields.find((field) => field.columns.includes(key) || field.name === key)!;

/**
 * Where the schema accepts and the decoder refuses: rules a JSON Schema cannot state. Each is
 * a 422 (or the 400 of a lone surrogate or a NUL) that the schemas' descriptions name.
 */
function knownGap(key: string, value: unknown, mode: "create" | "update"): string | undefined {
  const field = fieldOfKey(key);
  const text = typeof value === "string" ? value : undefined;
  const textType = ["string", "text", "rich_text"].includes(field.type);
  // A string holding a lone surrogate or a NUL is a 400, a json value's strings and keys too.
  if (UNSTORABLE_STRINGS.includes(value) && (textType || field.type === "json")) {
    return "a lone surrogate or a NUL is a 400";
  }
  if (unstorableKey(value) && field.type === "json") return "a NUL in a json key is a 400";
  const huge = text !== undefined && text.length > 100_000;
  if (huge && (textType || field.type === "json")) return "UTF-8 bytes, not characters";
  if (text === "<p> </p>" && field.type === "rich_text" && !field.optional) {
    return "rich_text blank once tags are stripped";
  }
  if (text === "2023-02-30 10:00" && field.type === "datetime") return "day past the month's end";
  if (text === "1e400" && field.optional && field.type === "float") return "number text infinite";
  const isId = field.type === "references" || (field.type === "polymorphic" && key.endsWith("_id"));
  const lowest = isId ? 1 : MIN_INTEGER;
  const integerText = text !== undefined && /^[+-]?\d+$/.test(text);
  const inRange = (number: number) => number >= lowest && number <= MAX_INTEGER;
  if (field.optional && (field.type === "integer" || isId) && integerText && !inRange(+text)) {
    return "integer text out of range";
  }
  if (field.type === "polymorphic" && (field.optional || mode === "update")) {
    const partValid = key.endsWith("_type")
      ? field.args.includes(value as string)
      : (Number.isInteger(value) && inRange(value as number)) ||
        (field.optional && integerText && inRange(+text));
    if (partValid) return "half a polymorphic pair";
  }
  return undefined;
}

describe("createJsonSchema and updateJsonSchema agree with the decoder", () => {
  const create = validator(createJsonSchema(sample));
  const update = validator(updateJsonSchema(sample));
  const keys = Object.keys(createJsonSchema(sample).properties as object);

  it("accepts the minimal body, and refuses it without any one required key", () => {
    expect(create(MINIMAL)).toBe(true);
    expect(decodeJsonCreate(sample.fields, MINIMAL).ok).toBe(true);
    for (const key of Object.keys(MINIMAL)) {
      const { [key]: _, ...body } = MINIMAL as Record<string, unknown>;
      expect({ key, schema: create(body) }).toEqual({ key, schema: false });
      expect(decodeJsonCreate(sample.fields, body)).toMatchObject({ ok: false, status: 400 });
    }
  });

  for (const mode of ["create", "update"] as const) {
    it(`${mode}: same verdict on every key and pool value, except the known gaps`, () => {
      const schemaKeys = mode === "create" ? keys : [...keys, "lock_version"];
      const disagreements: string[] = [];
      for (const key of schemaKeys) {
        for (const value of POOL) {
          const body = mode === "create" ? { ...MINIMAL, [key]: value } : { [key]: value };
          const decoded =
            mode === "create"
              ? decodeJsonCreate(sample.fields, body)
              : decodeJsonUpdate(sample.fields, body);
          const valid = mode === "create" ? create(body) : update(body);
          const gap = knownGap(key, value, mode);
          const shown = `${key}=${JSON.stringify(value)?.slice(0, 30)}`;
          if (gap !== undefined) {
            // A gap goes one way only: the schema is looser, never stricter, than the server.
            if (!(valid && !decoded.ok)) disagreements.push(`${shown}: not a gap (${gap})`);
          } else if (valid !== decoded.ok) {
            disagreements.push(`${shown}: schema ${valid}, decoder ${decoded.ok}`);
          }
        }
      }
      expect(disagreements).toEqual([]);
    });
  }

  it("every key but the required ones may be left out of a create; none of an update", () => {
    expect(createJsonSchema(sample).required).toEqual([
      "name",
      "code",
      "summary",
      "content",
      "count",
      "ratio",
      "born_on",
      "starts_at",
      "opens_at",
      "price",
      "external_id",
      "post_id",
      "target_type",
      "target_id",
      "details",
      "status",
    ]);
    expect(updateJsonSchema(sample).required).toBeUndefined();
    expect(update({})).toBe(true);
    expect(decodeJsonUpdate(sample.fields, {}).ok).toBe(true);
  });

  it("ignores keys it does not list, as the decoder does", () => {
    const extra = { ...MINIMAL, id: "x", user_id: [], public_id: 5, cover_key: 1, unknown: {} };
    expect(create(extra)).toBe(true);
    expect(decodeJsonCreate(sample.fields, extra).ok).toBe(true);
    expect(createJsonSchema(sample).additionalProperties).toBe(true);
    expect(keys).not.toContain("lock_version");
    expect(keys).not.toContain("cover_key");
    expect(keys).not.toContain("photos");
  });

  it("refuses what is not a JSON object, as the decoder does", () => {
    for (const body of [null, [], "x", 1]) {
      expect(create(body)).toBe(false);
      expect(update(body)).toBe(false);
      expect(decodeJsonUpdate(sample.fields, body)).toMatchObject({ ok: false, status: 400 });
    }
  });

  it("accepts every body validBody generates (property)", () => {
    fc.assert(
      fc.property(validBody(sample.fields), (body) => {
        expect(decodeJsonCreate(sample.fields, body).ok).toBe(true);
        expect(create(body)).toBe(true);
        expect(update(body)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe("the body schemas state the rules", () => {
  const properties = createJsonSchema(sample).properties as Record<string, JsonSchema>;
  const update = updateJsonSchema(sample).properties as Record<string, JsonSchema>;

  it("integers have their bounds; references start at 1; lock_version is in updates only", () => {
    expect(properties.count).toMatchObject({
      type: "integer",
      minimum: MIN_INTEGER,
      maximum: MAX_INTEGER,
    });
    expect(properties.post_id).toMatchObject({ type: "integer", minimum: 1, maximum: MAX_INTEGER });
    expect(update.lock_version).toMatchObject({ type: "integer", minimum: MIN_INTEGER });
  });

  it("dates, times and uuids carry a pattern; date and uuid a format too", () => {
    expect(properties.born_on).toMatchObject({ type: "string", format: "date" });
    expect(properties.external_id).toMatchObject({ type: "string", format: "uuid" });
    for (const key of ["born_on", "starts_at", "opens_at", "external_id", "price"]) {
      expect(properties[key]).toHaveProperty("pattern");
    }
    expect(properties.starts_at).not.toHaveProperty("format");
    expect(properties.opens_at).not.toHaveProperty("format");
  });

  it("enums list their values; a polymorphic type lists its models", () => {
    expect(properties.status).toEqual({ type: "string", enum: ["draft", "published"] });
    expect(properties.target_type).toEqual({ type: "string", enum: ["post", "comment"] });
  });

  it("text is bounded in characters and described in bytes", () => {
    expect(properties.name).toMatchObject({ maxLength: MAX_TEXT_BYTES, pattern: "\\S" });
    expect(properties.name?.description).toContain(`${MAX_TEXT_BYTES} bytes in UTF-8`);
    expect(properties.nickname).toMatchObject({ type: ["string", "null"] });
    expect(properties.nickname).not.toHaveProperty("pattern");
  });

  it("an optional value also takes null and a blank string, numbers their text", () => {
    const anyOf = (key: string) => properties[key]?.anyOf as JsonSchema[];
    expect(anyOf("quota").map((schema) => schema.type)).toEqual([
      "integer",
      "string",
      "string",
      "null",
    ]);
    expect(anyOf("ends_on").map((schema) => schema.type)).toEqual(["string", "string", "null"]);
    expect(properties.extra).not.toHaveProperty("type");
    expect(properties.details).toMatchObject({
      type: ["object", "array", "string", "number", "boolean"],
    });
  });
});

describe("recordJsonSchema", () => {
  const record = validator(recordJsonSchema(sample));
  const FULL_ROW = {
    id: 7,
    user_id: 3,
    ...MINIMAL,
    details: JSON.stringify(MINIMAL.details),
    nickname: "nick",
    notes: "notes",
    teaser: "<p>t</p>",
    quota: 5n,
    weight: 0.25,
    active: 1,
    ends_on: "2024-03-01",
    ends_at: "2024-03-01T10:00:00",
    closes_at: "18:00:00",
    discount: "-0.5",
    other_uuid: UUID.toUpperCase(),
    parent_id: 2,
    subject_type: "comment",
    subject_id: 9,
    cover_key: "k",
    cover_filename: "a.png",
    cover_content_type: "image/png",
    cover_size: 0,
    extra: "null",
    mood: "busy",
    lock_version: 4,
    created_at: "2024-01-01 00:00:00",
    updated_at: "2024-01-02 00:00:00",
  };

  it("validates encodeRecord of a full row and of one with every optional column empty", () => {
    expect(record(encodeRecord(sample.fields, FULL_ROW))).toBe(true);
    const empty = Object.fromEntries(
      Object.entries(FULL_ROW).map(([column, value]) => {
        const field = sample.fields.find((each) => each.columns.includes(column));
        return [column, field?.optional ? null : value];
      }),
    );
    expect(record(encodeRecord(sample.fields, empty))).toBe(true);
    expect(encodeRecord(sample.fields, empty).cover_key).toBeNull();
  });

  it("lists every key encodeRecord writes, all required, and no other", () => {
    const schema = recordJsonSchema(sample);
    const encoded = encodeRecord(sample.fields, FULL_ROW);
    expect(schema.required).toEqual(Object.keys(encoded));
    expect(Object.keys(schema.properties as object)).toEqual(Object.keys(encoded));
    expect(schema.additionalProperties).toBe(false);
    expect(record({ ...encoded, extra_key: 1 })).toBe(false);
  });

  it("refuses values the columns cannot hold", () => {
    const encoded = encodeRecord(sample.fields, FULL_ROW);
    for (const [key, value] of [
      ["name", null],
      ["quota", 1.5],
      ["active", 1],
      ["status", "other"],
      ["mood", "other"],
      ["born_on", "2023-02-29"],
      ["opens_at", "24:00"],
      ["external_id", `urn:uuid:${UUID}`],
      ["target_type", "label"],
      ["created_at", "2024-01-01T00:00:00Z"],
      ["details", null],
      ["lock_version", -1],
    ] as const) {
      expect({ key, valid: record({ ...encoded, [key]: value }) }).toEqual({ key, valid: false });
    }
  });

  it("names a public-id record by its public id, and leaves user_id out when not owned", () => {
    const schema = recordJsonSchema(label, { ownedByUser: false });
    expect(schema.required).toEqual(["public_id", "name", "color", "created_at", "updated_at"]);
    const row = {
      id: 1,
      public_id: "AAAAAAAAAAAAAAAAAAAAAA",
      name: "x",
      color: null,
      created_at: "2024-01-01 00:00:00",
      updated_at: "2024-01-01 00:00:00",
    };
    expect(validator(schema)(encodeRecord(label.fields, row))).toBe(true);
    expect(validator(schema)({ ...encodeRecord(label.fields, row), public_id: "short" })).toBe(
      false,
    );
    expect(createJsonSchema(label).properties).not.toHaveProperty("public_id");
  });
});
