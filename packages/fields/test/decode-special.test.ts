// The rules the per-type table cannot express: booleans, integer range, text size, rich_text
// sanitizing, polymorphic pairs, attachments, public ids, lock versions and whole bodies.

import { richTextSanitizer } from "@tessera/sanitizer";
import { describe, expect, it } from "vitest";
import {
  BLANK,
  type DecodeResult,
  decodeForm,
  decodeJsonCreate,
  decodeJsonUpdate,
  defineModel,
  type Field,
  isPublicId,
  MUST_EXIST,
  NOT_A_DATETIME,
  NOT_A_DECIMAL,
  NOT_A_NUMBER,
  NOT_IN_LIST,
  parseDeclarations,
  prepareRichText,
  richTextSanitizerOf,
  TOO_BIG,
  TOO_LONG,
  TOO_SMALL,
  withRichText,
} from "../src/index.js";

function fields(...declarations: string[]): readonly Field[] {
  const parsed = parseDeclarations(declarations, { jsonApi: false });
  if (!parsed.ok) throw new Error(parsed.reason);
  return withRichText(parsed.value, richTextSanitizer);
}

function valuesOf(result: DecodeResult): unknown {
  return result.ok ? result.value.values : result;
}

function form(entries: ReadonlyArray<readonly [string, string | File]>): FormData {
  const data = new FormData();
  for (const [key, value] of entries) data.append(key, value);
  return data;
}

describe("boolean", () => {
  const f = fields("published:bool");
  it("is false when missing on create and kept when missing on update", () => {
    expect(valuesOf(decodeJsonCreate(f, {}))).toEqual({ published: 0 });
    expect(valuesOf(decodeJsonCreate(f, { published: true }))).toEqual({ published: 1 });
    expect(valuesOf(decodeJsonUpdate(f, {}))).toEqual({});
    expect(valuesOf(decodeJsonUpdate(f, { published: false }))).toEqual({ published: 0 });
  });
  it("takes only JSON booleans", () => {
    for (const [input, described] of [
      ["true", 'string "true"'],
      [1, "integer 1"],
      [null, "null"],
    ] as const) {
      expect(decodeJsonCreate(f, { published: input })).toEqual({
        ok: false,
        status: 400,
        reason: `published: invalid type: ${described}, expected a boolean`,
      });
    }
  });
  it("reads a form checkbox: unchecked (absent) is false, the last value wins", () => {
    for (const [entries, expected] of [
      [[], 0],
      [[["published", "1"]], 1],
      [[["published", "on"]], 1],
      [[["published", "true"]], 1],
      [[["published", "0"]], 0],
      [[["published", "false"]], 0],
      [[["published", "off"]], 0],
      [[["published", ""]], 0],
      [
        [
          ["published", "0"],
          ["published", "1"],
        ],
        1,
      ],
    ] as const) {
      expect(valuesOf(decodeForm(f, form(entries)))).toEqual({ published: expected });
      expect(valuesOf(decodeForm(f, form(entries), { mode: "update" }))).toEqual({
        published: expected,
      });
    }
  });
});

describe("integer range", () => {
  const required = fields("views:integer");
  const optional = fields("views:integer?");
  it.each([
    [9007199254740991, undefined],
    [-9007199254740991, undefined],
    [9007199254740992, TOO_BIG],
    [-9007199254740992, TOO_SMALL],
    [1e300, TOO_BIG],
    [-1e300, TOO_SMALL],
  ])("JSON %d", (input, message) => {
    const result = decodeJsonCreate(required, { views: input });
    if (message === undefined) expect(valuesOf(result)).toEqual({ views: input });
    else expect(result).toMatchObject({ status: 422, fields: { views: [message] } });
  });
  it("gives exactly one range message for digit strings of any length, in JSON and forms", () => {
    for (const [text, message] of [
      ["9007199254740992", TOO_BIG],
      ["99999999999999999999999999999", TOO_BIG],
      ["-9007199254740992", TOO_SMALL],
    ] as const) {
      expect(decodeJsonCreate(optional, { views: text })).toMatchObject({
        fields: { views: [message] },
      });
      expect(decodeForm(required, new URLSearchParams({ views: text }))).toMatchObject({
        fields: { views: [message] },
      });
    }
  });
  it("refuses fractions in JSON (400) and forms (422)", () => {
    expect(decodeJsonCreate(required, { views: 7.5 })).toMatchObject({
      status: 400,
      reason: "views: invalid type: floating point 7.5, expected an integer",
    });
    for (const text of ["7.5", "1e3", " 7", "7 ", "0x10", "", "seven"]) {
      expect(decodeForm(required, new URLSearchParams({ views: text }))).toMatchObject({
        fields: { views: [NOT_A_NUMBER] },
      });
    }
  });
});

describe("text size", () => {
  const f = fields("title:string", "notes:text?", "metadata:json?");
  it("accepts 2,000,000 bytes and refuses one more, counting UTF-8 bytes", () => {
    const ok = decodeJsonCreate(f, { title: "a".repeat(2_000_000) });
    expect(ok.ok).toBe(true);
    expect(decodeJsonCreate(f, { title: "a".repeat(2_000_001) })).toMatchObject({
      fields: { title: [TOO_LONG] },
    });
    expect(decodeJsonCreate(f, { title: "€".repeat(666_666) }).ok).toBe(true);
    expect(decodeJsonCreate(f, { title: "x", notes: "€".repeat(666_667) })).toMatchObject({
      fields: { notes: [TOO_LONG] },
    });
    expect(decodeJsonCreate(f, { title: "😀".repeat(500_001) })).toMatchObject({
      fields: { title: [TOO_LONG] },
    });
    expect(decodeJsonCreate(f, { title: "x", metadata: "a".repeat(2_000_000) })).toMatchObject({
      fields: { metadata: [TOO_LONG] },
    });
  });
});

describe("rich_text", () => {
  const required = fields("body:rich_text");
  const optional = fields("body:rich_text?");
  const hostile =
    '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:alert(1)">x</a> <a href="/relative">r</a> <a href="https://example.com/" target="_blank">ok</a> <img src=x onerror=alert(1)><iframe src="https://evil"></iframe></p>';
  const clean =
    '<p>Hi <a>x</a> <a href="/relative">r</a> <a href="https://example.com/">ok</a> <img src="x" /></p>';
  it("is sanitized on every input path", () => {
    expect(valuesOf(decodeJsonCreate(required, { body: hostile }))).toEqual({ body: clean });
    expect(valuesOf(decodeJsonUpdate(required, { body: hostile }))).toEqual({ body: clean });
    expect(valuesOf(decodeForm(required, new URLSearchParams({ body: hostile })))).toEqual({
      body: clean,
    });
  });
  it("keeps the documented tags, mailto, relative and fragment links, and images", () => {
    const html =
      '<h1>T</h1><h5>t</h5><div>a<br />b <strong>s</strong> <b>b</b> <i>i</i> <del>d</del> <em>e</em> <code>c</code></div><pre>p</pre><blockquote>q</blockquote><ul><li>1</li></ul><ol><li>2</li></ol><a href="mailto:a@example.com">m</a><a href="http://x.test/">h</a><a href="/posts/1">r</a><a href="#top">f</a><img src="/a.png" alt="a" /><table><tr><td>t</td></tr></table>';
    expect(valuesOf(decodeJsonCreate(required, { body: html }))).toEqual({ body: html });
    expect(valuesOf(decodeForm(required, new URLSearchParams({ body: html })))).toEqual({
      body: html,
    });
    expect(
      valuesOf(decodeJsonCreate(required, { body: "<marquee>m</marquee><font>f</font>" })),
    ).toEqual({ body: "mf" });
  });
  it("checks blankness on the text with tags stripped", () => {
    for (const blank of [
      "<p> </p>",
      "<p>&nbsp;</p>",
      "<br />",
      "<script>hidden</script>",
      "<p><em></em></p>",
    ]) {
      expect(decodeJsonCreate(required, { body: blank })).toMatchObject({
        fields: { body: [BLANK] },
      });
      expect(decodeForm(required, new URLSearchParams({ body: blank }))).toMatchObject({
        fields: { body: [BLANK] },
      });
      expect(valuesOf(decodeJsonCreate(optional, { body: blank }))).toEqual({ body: null });
    }
  });
  it("is sanitized by the sanitizer its model was defined with", async () => {
    const shouting = { ...richTextSanitizer, sanitize: (html: string) => html.toUpperCase() };
    const model = defineModel("note", ["body:rich_text"], { richText: shouting });
    expect(valuesOf(decodeJsonCreate(model.fields, { body: "<p>hi</p>" }))).toEqual({
      body: "<P>HI</P>",
    });
    const long = { body: "<p>hi</p>".repeat(richTextSanitizer.sliceLength) };
    const ahead = { ...richTextSanitizer, sanitizeAsync: async () => "<p>ahead</p>" };
    const prepared = await prepareRichText(withRichText(required, ahead), long);
    expect(prepared.get(long.body)).toBe("<p>ahead</p>");
  });
  it("cannot be defined or read without a sanitizer, which names @tessera/sanitizer", () => {
    const advice =
      "`body:rich_text?` needs a sanitizer: pass `richText: richTextSanitizer` (from @tessera/sanitizer) where its model is defined";
    expect(() => defineModel("note", ["title:string", "body:rich_text?"])).toThrow(
      `model note: ${advice}`,
    );
    const parsed = parseDeclarations(["body:rich_text?"]);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(() => decodeJsonCreate(parsed.value, { body: "<p>x</p>" })).toThrow(advice);
    expect(() => richTextSanitizerOf(parsed.value[0]!)).toThrow(advice);
    // A model without rich_text needs none.
    expect(defineModel("note", ["title:string"]).fields).toHaveLength(1);
  });
});

describe("formats stored exactly as sent", () => {
  const f = fields("starts_at:datetime?", "price:decimal?", "external_ref:uuid?");
  it("keeps the separator, case and digits the client chose", () => {
    const body = {
      starts_at: "2024-01-01T10:00",
      price: "007.50",
      external_ref: "aBcDeF01-2345-6789-abcd-EF0123456789",
    };
    expect(valuesOf(decodeJsonCreate(f, body))).toEqual(body);
  });
  it.each([
    "2024-01-01",
    "2024-01-01T24:00",
    "2024-01-01 10:00Z",
    "2024-01-01 10:00+01:00",
    "2024-01-01 10:00:00.5",
    "2024-01-01t10:00",
    "2023-02-29 10:00",
    "2024-01-01  10:00",
  ])("refuses the datetime %s", (text) => {
    expect(decodeJsonCreate(f, { starts_at: text })).toMatchObject({
      fields: { starts_at: [NOT_A_DATETIME] },
    });
  });
  it.each(["1e5", "1.", ".5", "1,000", "1 000", " 1", "+-1", "١٢", "Infinity", "0x1A"])(
    "refuses the decimal %s",
    (text) => {
      expect(decodeJsonCreate(f, { price: text })).toMatchObject({
        fields: { price: [NOT_A_DECIMAL] },
      });
    },
  );
});

describe("json", () => {
  const f = fields("metadata:json?");
  const required = fields("metadata:json");
  it("stores any JSON value as compact text; a JSON string stays a string", () => {
    for (const [value, stored] of [
      [{ a: 1 }, '{"a":1}'],
      [[1, "x", null], '[1,"x",null]'],
      ["text", '"text"'],
      ["", '""'],
      [12.5, "12.5"],
      [false, "false"],
    ] as const) {
      expect(valuesOf(decodeJsonCreate(f, { metadata: value }))).toEqual({ metadata: stored });
      expect(valuesOf(decodeJsonUpdate(f, { metadata: value }))).toEqual({ metadata: stored });
    }
    expect(valuesOf(decodeJsonUpdate(f, { metadata: null }))).toEqual({ metadata: null });
  });
  it("refuses nesting deeper than 128 levels instead of overflowing the stack", () => {
    const nested = (depth: number) => JSON.parse("[".repeat(depth) + "]".repeat(depth));
    expect(valuesOf(decodeJsonCreate(f, { metadata: nested(128) }))).toEqual({
      metadata: "[".repeat(128) + "]".repeat(128),
    });
    expect(decodeJsonCreate(f, { metadata: nested(200_000) })).toEqual({
      ok: false,
      status: 400,
      reason: "metadata: recursion limit exceeded",
    });
    expect(
      decodeForm(f, new URLSearchParams({ metadata: "[".repeat(200_000) + "]".repeat(200_000) })),
    ).toMatchObject({
      fields: { metadata: ["is not valid JSON"] },
    });
  });
  it("reads form text as JSON; `null` clears an optional field and is blank for a required one", () => {
    expect(valuesOf(decodeForm(f, new URLSearchParams({ metadata: "null" })))).toEqual({
      metadata: null,
    });
    expect(decodeForm(required, new URLSearchParams({ metadata: "null" }))).toMatchObject({
      fields: { metadata: [BLANK] },
    });
    expect(valuesOf(decodeForm(f, new URLSearchParams({ metadata: '"text"' })))).toEqual({
      metadata: '"text"',
    });
  });
});

describe("enum", () => {
  const f = fields("status:enum:draft,review,published");
  it("refuses a value outside the list with a 400 in JSON (create and update), a 422 in forms", () => {
    const reason =
      "status: unknown variant `Draft`, expected one of `draft`, `review`, `published`";
    expect(decodeJsonCreate(f, { status: "Draft" })).toEqual({ ok: false, status: 400, reason });
    expect(decodeJsonUpdate(f, { status: "Draft" })).toEqual({ ok: false, status: 400, reason });
    expect(decodeForm(f, new URLSearchParams({ status: "Draft" }))).toMatchObject({
      fields: { status: [NOT_IN_LIST] },
    });
  });
});

describe("references", () => {
  const f = fields("post:references", "author:references:user:writer_id?");
  it("reads the column key, refuses ids no row can have, clears an optional one", () => {
    expect(valuesOf(decodeJsonCreate(f, { post_id: 3, writer_id: "4" }))).toEqual({
      post_id: 3,
      writer_id: 4,
    });
    for (const id of [0, -1, 9007199254740992]) {
      expect(decodeJsonCreate(f, { post_id: id })).toMatchObject({
        fields: { post_id: [MUST_EXIST] },
      });
    }
    expect(valuesOf(decodeJsonUpdate(f, { writer_id: null }))).toEqual({ writer_id: null });
    expect(decodeForm(f, new URLSearchParams({ post_id: "", writer_id: "x" }))).toMatchObject({
      fields: { post_id: [MUST_EXIST], writer_id: [NOT_A_NUMBER] },
    });
  });
});

describe("polymorphic", () => {
  const required = fields("target:polymorphic:post,comment");
  const optional = fields("target:polymorphic:post,comment?");
  it("needs both keys on create when required", () => {
    expect(valuesOf(decodeJsonCreate(required, { target_type: "post", target_id: 2 }))).toEqual({
      target_type: "post",
      target_id: 2,
    });
    expect(decodeJsonCreate(required, { target_id: 2 })).toMatchObject({
      status: 400,
      reason: "missing field `target_type`",
    });
    expect(decodeJsonCreate(required, { target_type: "post" })).toMatchObject({
      status: 400,
      reason: "missing field `target_id`",
    });
    expect(decodeJsonCreate(required, { target_type: "user", target_id: 2 })).toMatchObject({
      status: 400,
      reason: "target_type: unknown variant `user`, expected one of `post`, `comment`",
    });
    expect(decodeJsonCreate(required, { target_type: "post", target_id: "2" })).toMatchObject({
      status: 400,
      reason: 'target_id: invalid type: string "2", expected an integer',
    });
  });
  it("writes the pair together: half a pair is `must exist` on `<name>_id`", () => {
    expect(valuesOf(decodeJsonCreate(optional, {}))).toEqual({
      target_type: null,
      target_id: null,
    });
    expect(decodeJsonCreate(optional, { target_type: "post" })).toMatchObject({
      fields: { target_id: [MUST_EXIST] },
    });
    expect(decodeJsonCreate(optional, { target_id: 3 })).toMatchObject({
      fields: { target_id: [MUST_EXIST] },
    });
    expect(valuesOf(decodeJsonUpdate(optional, {}))).toEqual({});
    expect(valuesOf(decodeJsonUpdate(optional, { target_type: null, target_id: null }))).toEqual({
      target_type: null,
      target_id: null,
    });
    expect(decodeJsonUpdate(required, { target_type: "comment" })).toMatchObject({
      fields: { target_id: [MUST_EXIST] },
    });
  });
  it("reads forms with the documented messages on each column", () => {
    expect(
      decodeForm(required, new URLSearchParams({ target_type: "user", target_id: "x" })),
    ).toMatchObject({
      fields: { target_type: [NOT_IN_LIST], target_id: [NOT_A_NUMBER] },
    });
    expect(
      decodeForm(required, new URLSearchParams({ target_type: "", target_id: "" })),
    ).toMatchObject({
      fields: { target_id: [MUST_EXIST] },
    });
    expect(
      valuesOf(decodeForm(optional, new URLSearchParams({ target_type: " ", target_id: "" }))),
    ).toEqual({
      target_type: null,
      target_id: null,
    });
    expect(valuesOf(decodeForm(required, new URLSearchParams(), { mode: "update" }))).toEqual({});
  });
});

describe("attachments", () => {
  const f = fields("cover:attachment", "photos:attachments");
  const png = (size: number, name = "a.png", type = "image/png") =>
    new File([new Uint8Array(size)], name, { type });
  it("ignores attachment keys in JSON: files never travel in a JSON body", () => {
    const json = fields("title:string", "cover:attachment?");
    const result = decodeJsonCreate(json, { title: "t", cover_key: "k", cover_size: 5 });
    expect(valuesOf(result)).toEqual({ title: "t" });
  });
  it("returns files that pass the rules as uploads", () => {
    const a = png(10);
    const b = png(20, "b.pdf", "Application/PDF; x=y");
    const c = png(30, "c.txt", "text/plain");
    const result = decodeForm(
      f,
      form([
        ["cover", a],
        ["photos", b],
        ["photos", c],
      ]),
    );
    expect(result.ok && result.value.uploads).toEqual([
      { field: "cover", file: a },
      { field: "photos", file: b },
      { field: "photos", file: c },
    ]);
  });
  it("refuses a large or unsupported file with both messages, and a missing required one", () => {
    const types = "image/png, image/jpeg, image/gif, image/webp, application/pdf, text/plain";
    const result = decodeForm(
      f,
      form([
        ["cover", png(10 * 1024 * 1024 + 1, "a.svg", "image/svg+xml")],
        ["photos", png(1, "x.exe", "application/x-msdownload")],
        ["photos", png(2, "y.exe", "application/x-msdownload")],
      ]),
    );
    expect(result).toMatchObject({
      status: 422,
      fields: {
        cover: ["is too large (maximum is 10 MB)", `has an unsupported type (allowed: ${types})`],
        photos: [`has an unsupported type (allowed: ${types})`],
      },
    });
    expect(decodeForm(f, form([["cover", new File([], "")]]))).toMatchObject({
      fields: { cover: [BLANK] },
    });
    expect(decodeForm(f, form([]), { mode: "update" })).toEqual({
      ok: true,
      value: { values: {}, uploads: [] },
    });
  });
  it("applies per-field rules", () => {
    const rules = { cover: { maxBytes: 1024 * 1024, contentTypes: ["image/png"] } };
    const result = decodeForm(f, form([["cover", png(2 * 1024 * 1024, "a.jpg", "image/jpeg")]]), {
      attachmentRules: rules,
    });
    expect(result).toMatchObject({
      fields: {
        cover: ["is too large (maximum is 1 MB)", "has an unsupported type (allowed: image/png)"],
      },
    });
  });
});

describe("public id and lock version", () => {
  const f = fields("public_id:token", "title:string", "lock_version:integer");
  it("makes a public id on create only, whatever the body says", () => {
    const created = decodeJsonCreate(
      f,
      { title: "t", public_id: "mine", lock_version: 9 },
      { newPublicId: () => "p".repeat(22) },
    );
    expect(valuesOf(created)).toEqual({ public_id: "p".repeat(22), title: "t" });
    const generated = decodeJsonCreate(f, { title: "t" });
    expect(generated.ok && isPublicId(String(generated.value.values.public_id))).toBe(true);
    expect(valuesOf(decodeJsonUpdate(f, { public_id: "mine" }))).toEqual({});
    const fromForm = decodeForm(f, new URLSearchParams({ title: "t" }));
    expect(fromForm.ok && isPublicId(String(fromForm.value.values.public_id))).toBe(true);
  });
  it("returns the lock version a client sent on update, refusing other types", () => {
    expect(decodeJsonUpdate(f, { title: "u", lock_version: 3 })).toEqual({
      ok: true,
      value: { values: { title: "u" }, lockVersion: 3 },
    });
    expect(decodeJsonUpdate(f, { title: "u" })).toEqual({
      ok: true,
      value: { values: { title: "u" } },
    });
    expect(decodeJsonUpdate(f, { lock_version: "3" })).toMatchObject({
      status: 400,
      reason: 'lock_version: invalid type: string "3", expected an integer',
    });
    const edited = decodeForm(f, new URLSearchParams({ title: "u", lock_version: "4" }), {
      mode: "update",
    });
    expect(edited.ok && edited.value.lockVersion).toBe(4);
    expect(
      decodeForm(f, new URLSearchParams({ title: "u", lock_version: "x" }), { mode: "update" }),
    ).toMatchObject({
      fields: { lock_version: [NOT_A_NUMBER] },
    });
  });
});

describe("whole bodies", () => {
  const f = fields(
    "title:string",
    "views:integer?",
    "publish_on:date?",
    "status:enum:draft,published",
  );
  it.each([
    [[], "array"],
    [null, "null"],
    ["text", 'string "text"'],
    [5, "integer 5"],
  ])("refuses a body that is not an object: %j", (body, described) => {
    expect(decodeJsonCreate(f, body)).toEqual({
      ok: false,
      status: 400,
      reason: `invalid type: ${described}, expected a JSON object`,
    });
    expect(decodeJsonUpdate(f, body)).toEqual({
      ok: false,
      status: 400,
      reason: `invalid type: ${described}, expected a JSON object`,
    });
  });
  it("reports every failing field together", () => {
    const result = decodeJsonCreate(f, {
      title: "",
      views: 1e20,
      publish_on: "2023-13-01",
      status: "draft",
    });
    expect(result).toEqual({
      ok: false,
      status: 422,
      reason: "Validation failed",
      fields: { title: [BLANK], views: [TOO_BIG], publish_on: ["is not a valid date"] },
    });
  });
  it("answers 400 before validating, wherever the malformed field is", () => {
    const result = decodeJsonCreate(f, { title: "", views: "many", status: "draft" });
    expect(result).toEqual({
      ok: false,
      status: 400,
      reason: 'views: invalid value: string "many", expected an integer',
    });
  });
  it("ignores keys that are not fields", () => {
    expect(
      valuesOf(
        decodeJsonCreate(f, {
          title: "t",
          status: "draft",
          id: 5,
          user_id: 9,
          __proto__: { x: 1 },
        }),
      ),
    ).toEqual({
      title: "t",
      views: null,
      publish_on: null,
      status: "draft",
    });
  });
});
