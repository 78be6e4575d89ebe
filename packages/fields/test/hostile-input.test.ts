// Input an attacker sends on purpose: rich text far over the size limit (refused before the
// sanitizer runs), numbers JSON can write but a column cannot hold, and strings that are not
// valid Unicode or hold a NUL, which PostgreSQL cannot store and SQLite can.

import { richTextSanitizer } from "@tessera/sanitizer";
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

// The real sanitizer, wrapped so a test can see whether it ran.
const sanitizer = vi.fn(richTextSanitizer.sanitize);
afterEach(() => sanitizer.mockClear());
const richText = { ...richTextSanitizer, sanitize: sanitizer };

/** The fields of a model declared as a generated model file declares them. */
const fields = (...declarations: string[]) =>
  defineModel("post", declarations, { richText }).fields;

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

describe("strings no database stores alike: lone surrogates and NUL", () => {
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
  // JSON.parse turns the escape "\ud800" into a lone surrogate, which has no UTF-8 form; and
  // "\u0000" into a NUL, which PostgreSQL refuses in text and jsonb while SQLite keeps it.
  const lone = JSON.parse('"a\\ud800b"') as string;
  const nul = JSON.parse('"a\\u0000b"') as string;
  const reason = (key: string) => `${key}: invalid value: lone surrogate in string`;
  const nulReason = (key: string) => `${key}: invalid value: NUL character in string`;
  const keys = [
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
  ];

  it.each(keys)("refuses a lone surrogate in %s with a 400 naming the field", (key) => {
    expect(decodeJsonCreate(f, { ...valid, [key]: lone })).toEqual(deserialize(reason(key)));
    expect(decodeJsonUpdate(f, { [key]: lone })).toEqual(deserialize(reason(key)));
  });

  it.each(keys)("refuses a NUL in %s with a 400 naming the field", (key) => {
    expect(decodeJsonCreate(f, { ...valid, [key]: nul })).toEqual(deserialize(nulReason(key)));
    expect(decodeJsonUpdate(f, { [key]: nul })).toEqual(deserialize(nulReason(key)));
  });

  it("refuses a trailing surrogate alone and one at the very end, a NUL alone and at either end", () => {
    for (const text of ["\udc00", "x\ud83d"]) {
      expect(decodeJsonCreate(f, { ...valid, title: text })).toEqual(deserialize(reason("title")));
    }
    for (const text of ["\u0000", "\u0000x", "x\u0000"]) {
      expect(decodeJsonCreate(f, { ...valid, title: text })).toEqual(
        deserialize(nulReason("title")),
      );
    }
  });

  it("names a NUL first when a string holds both", () => {
    for (const title of ["\u0000\ud800", "\ud800\u0000"]) {
      expect(decodeJsonCreate(f, { ...valid, title })).toEqual(deserialize(nulReason("title")));
    }
  });

  it("refuses either in a json value's strings and object keys, at any depth", () => {
    const metadata = (value: unknown) => decodeJsonCreate(f, { ...valid, metadata: value });
    for (const value of [
      nul,
      [nul],
      { note: nul },
      { [nul]: 1 },
      { a: [{ b: [[{ [`k${nul}`]: true }]] }] },
    ]) {
      expect(metadata(value)).toEqual(deserialize(nulReason("metadata")));
    }
    for (const value of [lone, { note: lone }, { [lone]: null }]) {
      expect(metadata(value)).toEqual(deserialize(reason("metadata")));
    }
    // On update too, where a json string stays a string.
    expect(decodeJsonUpdate(f, { metadata: nul })).toEqual(deserialize(nulReason("metadata")));
  });

  it("keeps a surrogate pair (an emoji) and other control characters, in text and in json", () => {
    expect(decodeJsonCreate(f, { ...valid, title: "😀\u0001\u007f" })).toMatchObject(
      accepted({ title: "😀\u0001\u007f" }),
    );
    expect(decodeJsonCreate(f, { ...valid, metadata: { "😀": "\u0001" } })).toMatchObject(
      accepted({ metadata: '{"😀":"\\u0001"}' }),
    );
  });

  it("refuses a lone surrogate or a NUL in a form value with `is invalid`", () => {
    // Browsers' form bodies decode to valid Unicode; only a hand-built form input can carry a
    // lone surrogate. A NUL is `%00`, or pasted text.
    for (const text of [lone, nul]) {
      const form = { getAll: (name: string) => (name === "title" ? [text] : []) };
      expect(decodeForm(f, form)).toMatchObject({
        status: 422,
        fields: { title: [INVALID] },
      });
    }
    expect(decodeForm(f, new URLSearchParams("title=a%00b&status=draft"))).toMatchObject({
      status: 422,
      fields: { title: [INVALID] },
    });
  });

  it("answers `is not valid JSON` for a json form value holding an escaped NUL or lone surrogate", () => {
    for (const text of ['{"a":"\\u0000"}', '{"\\u0000":1}', '["\\ud800"]']) {
      const form = new URLSearchParams({ title: "Hi", status: "draft", metadata: text });
      expect(decodeForm(f, form)).toMatchObject({
        status: 422,
        fields: { metadata: [NOT_JSON] },
      });
    }
  });
});
