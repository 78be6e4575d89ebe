// Long rich_text values are sanitized ahead, a slice at a time (prepareRichText, with the model's
// sanitizer), and the decoders take the result instead of sanitizing on the spot.
import { richTextSanitizer, sanitizeRichText } from "@tessera/sanitizer";
import { describe, expect, it } from "vitest";
import {
  decodeForm,
  decodeJsonCreate,
  decodeJsonUpdate,
  defineModel,
  MAX_TEXT_BYTES,
  prepareRichText,
  TOO_LONG,
} from "../src/index.js";

const model = defineModel("post", ["title:string", "body:rich_text?", "summary:rich_text?"], {
  richText: richTextSanitizer,
});
const nested = "<b>".repeat(100_000);
const editorParagraphs = '<p class="x">Some <em>text</em> &amp; a <a href="/a">link</a></p>'.repeat(
  2_000,
);

describe("prepareRichText", () => {
  it("sanitizes the long rich_text values of a JSON body, keyed by the value sent", async () => {
    const body = { title: editorParagraphs, body: nested, summary: "<p>short</p>" };
    const prepared = await prepareRichText(model.fields, body);
    // The title is not rich_text; the summary is short enough to sanitize on the spot.
    expect([...prepared.keys()]).toEqual([nested]);
    expect(prepared.get(nested)).toBe(sanitizeRichText(nested));
  });

  it("reads a form's last text for each rich_text field", async () => {
    const form = new URLSearchParams([
      ["body", "<i>first</i>"],
      ["body", nested],
      ["summary", editorParagraphs],
    ]);
    const prepared = await prepareRichText(model.fields, form);
    expect([...prepared.keys()]).toEqual([nested, editorParagraphs]);
    expect(prepared.get(editorParagraphs)).toBe(sanitizeRichText(editorParagraphs));
  });

  it("skips values over the size limit, which the decoder refuses unread", async () => {
    const tooLong = "<b>".repeat(Math.ceil(MAX_TEXT_BYTES / 3) + 1);
    expect((await prepareRichText(model.fields, { body: tooLong })).size).toBe(0);
    const decoded = decodeJsonCreate(model.fields, { title: "t", body: tooLong });
    expect(decoded).toMatchObject({ ok: false, status: 422, fields: { body: [TOO_LONG] } });
  });

  it("gives nothing for bodies that are not objects or forms", async () => {
    for (const body of [null, "text", 42, [nested]]) {
      expect((await prepareRichText(model.fields, body)).size).toBe(0);
    }
  });
});

describe("the decoders' richText option", () => {
  it("decodes exactly as without it, on create, update and forms", async () => {
    const body = { title: "t", body: nested, summary: editorParagraphs };
    const richText = await prepareRichText(model.fields, body);
    expect(decodeJsonCreate(model.fields, body, { richText })).toEqual(
      decodeJsonCreate(model.fields, body),
    );
    expect(decodeJsonUpdate(model.fields, body, { richText })).toEqual(
      decodeJsonUpdate(model.fields, body),
    );
    const form = new URLSearchParams(Object.entries(body));
    expect(decodeForm(model.fields, form, { richText })).toEqual(decodeForm(model.fields, form));
  });

  it("takes a prepared value as already sanitized instead of sanitizing it again", () => {
    // A prepared value stands for the one sent: what the decoder stores is the prepared HTML.
    const richText = new Map([[nested, "<p>prepared</p>"]]);
    const body = { title: "t", body: nested };
    expect(decodeJsonCreate(model.fields, body, { richText })).toMatchObject({
      ok: true,
      value: { values: { body: "<p>prepared</p>" } },
    });
    const form = new URLSearchParams(Object.entries(body));
    expect(decodeForm(model.fields, form, { richText })).toMatchObject({
      ok: true,
      value: { values: { body: "<p>prepared</p>" } },
    });
    // Any other value is sanitized as always.
    expect(
      decodeJsonCreate(model.fields, { title: "t", body: "<i>x" }, { richText }),
    ).toMatchObject({ ok: true, value: { values: { body: "<i>x</i>" } } });
  });
});
