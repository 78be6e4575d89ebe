import { type ColumnRead, readJsonValue } from "./column-read.js";
import { type ColumnValue, type DecodeResult, invalid, malformed } from "./decode-result.js";
import type { Field } from "./field.js";
import type { FieldMessages } from "./messages.js";
import { describeJsonValue } from "./messages.js";
import { joinPair, polymorphicParts } from "./polymorphic-pair.js";
import { newPublicId } from "./public-id.js";
import type { PreparedRichText } from "./rich-text-prepare.js";

/** Options of {@link decodeJsonUpdate}. */
export interface JsonUpdateOptions {
  /** Long rich_text values already sanitized, from `prepareRichText`. */
  readonly richText?: PreparedRichText | undefined;
}

/** Options of {@link decodeJsonCreate}. */
export interface JsonCreateOptions extends JsonUpdateOptions {
  /** Makes the `public_id` of a new record (default {@link newPublicId}); inject one in tests. */
  readonly newPublicId?: (() => string) | undefined;
}

type JsonObject = Readonly<Record<string, unknown>>;
type Reads = ReadonlyArray<readonly [string, ColumnRead]>;

const NULL: ColumnRead = { ok: true, value: null };
const LOCK_VERSION: Field = {
  name: "lock_version",
  type: "lock_version",
  optional: false,
  unique: false,
  args: [],
  columns: ["lock_version"],
  declaration: "lock_version:integer",
};

/**
 * Decodes a JSON create body (already parsed). A required key must be present with its JSON type
 * (a missing boolean is false); an optional one may be missing, null or blank (null). Attachment
 * keys are ignored: files are uploaded separately. Never throws on any parsed JSON value.
 */
export function decodeJsonCreate(
  fields: readonly Field[],
  body: unknown,
  options: JsonCreateOptions = {},
): DecodeResult {
  const makePublicId = options.newPublicId ?? newPublicId;
  return decodeJson(fields, body, (field, object) =>
    readForCreate(field, object, makePublicId, options.richText),
  );
}

/**
 * Decodes a JSON update body: a missing key keeps its column, null or a blank string clears an
 * optional one (a json field keeps a string as a string), and a sent `lock_version` is returned
 * for the caller's stale-version check.
 */
export function decodeJsonUpdate(
  fields: readonly Field[],
  body: unknown,
  options: JsonUpdateOptions = {},
): DecodeResult {
  return decodeJson(fields, body, (field, object) =>
    readForUpdate(field, object, options.richText),
  );
}

function decodeJson(
  fields: readonly Field[],
  body: unknown,
  readField: (field: Field, object: JsonObject) => Reads,
): DecodeResult {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return malformed(`invalid type: ${describeJsonValue(body)}, expected a JSON object`);
  }
  const object = body as JsonObject;
  const values: Record<string, ColumnValue> = {};
  const messages: FieldMessages = {};
  let lockVersion: number | undefined;
  for (const field of fields) {
    for (const [key, read] of readField(field, object)) {
      if (read.ok && field.type === "lock_version") lockVersion = read.value as number;
      else if (read.ok) values[key] = read.value;
      else if (read.status === 400) return malformed(read.reason);
      else messages[key] = [...read.messages];
    }
  }
  if (Object.keys(messages).length > 0) return invalid(messages);
  return { ok: true, value: lockVersion === undefined ? { values } : { values, lockVersion } };
}

function has(object: JsonObject, key: string): boolean {
  return Object.hasOwn(object, key) && object[key] !== undefined;
}

function missing(key: string): ColumnRead {
  return { ok: false, status: 400, reason: `missing field \`${key}\`` };
}

function readForCreate(
  field: Field,
  object: JsonObject,
  makePublicId: () => string,
  richText: PreparedRichText | undefined,
): Reads {
  switch (field.type) {
    case "attachment":
    case "attachments":
    case "lock_version":
      return [];
    case "public_id":
      return [["public_id", { ok: true, value: makePublicId() }]];
    case "polymorphic": {
      const [typeKey, idKey] = field.columns as readonly [string, string];
      if (!field.optional) {
        if (!has(object, typeKey)) return [[typeKey, missing(typeKey)]];
        if (!has(object, idKey)) return [[idKey, missing(idKey)]];
      }
      return readPair(field, object);
    }
    default: {
      const key = field.columns[0]!;
      if (has(object, key)) return [[key, readJsonValue(field, key, object[key], richText)]];
      if (field.type === "boolean") return [[key, { ok: true, value: 0 }]];
      return [[key, field.optional ? NULL : missing(key)]];
    }
  }
}

function readForUpdate(
  field: Field,
  object: JsonObject,
  richText: PreparedRichText | undefined,
): Reads {
  switch (field.type) {
    case "attachment":
    case "attachments":
    case "public_id":
      return [];
    case "lock_version":
      return has(object, "lock_version")
        ? [["lock_version", readJsonValue(LOCK_VERSION, "lock_version", object.lock_version)]]
        : [];
    case "polymorphic":
      return field.columns.some((key) => has(object, key)) ? readPair(field, object) : [];
    default: {
      const key = field.columns[0]!;
      return has(object, key) ? [[key, readJsonValue(field, key, object[key], richText)]] : [];
    }
  }
}

function readPair(field: Field, object: JsonObject): Reads {
  const [typePart, idPart] = polymorphicParts(field);
  const read = (part: Field) =>
    has(object, part.name) ? readJsonValue(part, part.name, object[part.name]) : NULL;
  return joinPair(field, read(typePart), read(idPart));
}
