// Input an attacker sends on purpose: rich text far over the size limit (refused before the
// sanitizer runs), numbers JSON can write but a column cannot hold, and strings that are not
// valid Unicode.

import { afterEach, describe, expect, it, vi } from "vitest";
import {
  decodeForm,
  decodeJsonCreate,
  decodeJsonUpdate,
  defineModel,
  INVALID,
  MAX_TEXT_BYTES,
  NOT_A_NUMBER,
  NOT_JSON,
  TOO_LONG,
} from "../src/index.js";
import { sanitizeRichText } from "../src/rich-text.js";

// The real sanitizer, wrapped so a test can see whether it ran.
vi.mock("../src/rich-text.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/rich-text.js")>();
  return { ...real, sanitizeRichText: vi.fn(real.sanitizeRichText) };
});

const sanitizer = vi.mocked(sanitizeRichText);
afterEach(() => sanitizer.mockClear());

/** The fields of a model declared as a generated model file declares them. */
const fields = (...declarations: string[]) => defineModel("post", declarations).fields;

/** The column values of a decode that passed. */
const accepted = (values: Record<string, unknown>) => ({ ok: true, value: { values } });

const deserialize = (reason: string) => ({ ok: false, status: 400, reason });

describe("rich_text size is checked on the raw value, before sanitizing", () => {
  const f = fields("body:rich_text");
  // Markup on every byte, so sanitizing it would be the slow path.
  const markup = (bytes: number) => "<b>".repeat(Math.ceil(bytes / 3)).slice(0, bytes);

  it("refuses a value of 2,000,001 bytes without calling the sanitizer, on every path", () => {
    const oversized = markup(MAX_TEXT_BYTES + 1);
    const refused = { ok: false, status: 422, fields: { body: [TOO_LONG] } };
    expect(decodeJsonCreate(f, { body: oversized })).toMatchObject(refused);
    expect(decodeJsonUpdate(f, { body: oversized })).toMatchObject(refused);
    expect(decodeForm(f, new URLSearchParams({ body: oversized }))).toMatchObject(refused);
    const multipart = new FormData();
    multipart.append("body", oversized);
    expect(decodeForm(f, multipart, { mode: "update" })).toMatchObject(refused);
    expect(sanitizer).not.toHaveBeenCalled();
  });

  it("counts UTF-8 bytes of the raw value: 666,667 euro signs are over the limit", () => {
    expect(decodeJsonCreate(f, { body: `<p>${"€".repeat(666_667)}` })).toMatchObject({
      fields: { body: [TOO_LONG] },
    });
    expect(sanitizer).not.toHaveBeenCalled();
  });

  it("sanitizes and accepts a value just under the limit", () => {
    const paragraph = "<p>Hello <em>there</em></p>";
    const html = paragraph.repeat(Math.floor(MAX_TEXT_BYTES / paragraph.length));
    expect(html.length).toBeGreaterThan(MAX_TEXT_BYTES - paragraph.length);
    expect(decodeJsonCreate(f, { body: html })).toEqual(accepted({ body: html }));
    expect(sanitizer).toHaveBeenCalled();
  });
});

describe("numbers a column cannot hold", () => {
  const f = fields("rating:float?", "score:float", "views:integer?", "metadata:json?");

  it("refuses a float that JSON.parse read as Infinity with a 400 naming the field", () => {
    for (const text of ["1e400", "-1e400"]) {
      const body = JSON.parse(`{"score": 1, "rating": ${text}}`);
      expect(decodeJsonCreate(f, body)).toEqual(deserialize("rating: number out of range"));
      expect(decodeJsonUpdate(f, body)).toEqual(deserialize("rating: number out of range"));
      const required = JSON.parse(`{"score": ${text}}`);
      expect(decodeJsonCreate(f, required)).toEqual(deserialize("score: number out of range"));
    }
  });

  it("refuses an integer that JSON.parse read as Infinity with the same 400", () => {
    const body = JSON.parse('{"score": 1, "views": 1e400}');
    expect(decodeJsonCreate(f, body)).toEqual(deserialize("views: number out of range"));
  });

  it("refuses Infinity inside a json value rather than storing it as null", () => {
    const body = JSON.parse('{"score": 1, "metadata": {"a": [1, -1e400]}}');
    expect(decodeJsonCreate(f, body)).toEqual(deserialize("metadata: number out of range"));
    expect(decodeForm(f, new URLSearchParams({ score: "1", metadata: '{"a":1e400}' }))).toEqual({
      ok: false,
      status: 422,
      reason: "Validation failed",
      fields: { metadata: [NOT_JSON] },
    });
  });

  it("answers `is not a number` for out-of-range floats in forms", () => {
    for (const text of ["1e400", "-1e400", "Infinity", "NaN"]) {
      expect(decodeForm(f, new URLSearchParams({ score: text, rating: text }))).toEqual({
        ok: false,
        status: 422,
        reason: "Validation failed",
        fields: { score: [NOT_A_NUMBER], rating: [NOT_A_NUMBER] },
      });
    }
  });

  it("still stores the largest finite float", () => {
    const body = JSON.parse('{"score": 1.7976931348623157e308}');
    expect(decodeJsonCreate(f, body)).toMatchObject(accepted({ score: Number.MAX_VALUE }));
  });
});

describe("strings that are not valid Unicode", () => {
  const f = fields(
    "title:string",
    "notes:text?",
    "body:rich_text?",
    "publish_on:date?",
    "starts_at:datetime?",
    "reminder_at:time?",
    "price:decimal?",
    "external_ref:uuid?",
    "status:enum:draft,live",
    "views:integer?",
    "metadata:json?",
  );
  const valid = { title: "Hi", status: "draft" };
  // JSON.parse turns the escape "\ud800" into a lone surrogate, which has no UTF-8 form.
  const lone = JSON.parse('"a\\ud800b"') as string;
  const reason = (key: string) => `${key}: invalid value: lone surrogate in string`;

  it.each([
    "title",
    "notes",
    "body",
    "publish_on",
    "starts_at",
    "reminder_at",
    "price",
    "external_ref",
    "status",
    "views",
  ])("refuses a lone surrogate in %s with a 400 naming the field", (key) => {
    expect(decodeJsonCreate(f, { ...valid, [key]: lone })).toEqual(deserialize(reason(key)));
    expect(decodeJsonUpdate(f, { [key]: lone })).toEqual(deserialize(reason(key)));
  });

  it("refuses a trailing surrogate alone and one at the very end", () => {
    for (const text of ["\udc00", "x\ud83d"]) {
      expect(decodeJsonCreate(f, { ...valid, title: text })).toEqual(deserialize(reason("title")));
    }
  });

  it("keeps a surrogate pair (an emoji) and keeps a json value's escaped string as sent", () => {
    expect(decodeJsonCreate(f, { ...valid, title: "😀" })).toMatchObject(accepted({ title: "😀" }));
    // A json value is stored as JSON text, where the surrogate stays the ASCII escape \ud800.
    expect(decodeJsonCreate(f, { ...valid, metadata: { note: lone } })).toMatchObject(
      accepted({ metadata: '{"note":"a\\ud800b"}' }),
    );
  });

  it("refuses a lone surrogate in a form value with `is invalid`", () => {
    // Browsers' form bodies decode to valid Unicode; only a hand-built form input can carry one.
    const form = { getAll: (name: string) => (name === "title" ? [lone] : []) };
    expect(decodeForm(f, form)).toMatchObject({
      status: 422,
      fields: { title: [INVALID] },
    });
  });
});
