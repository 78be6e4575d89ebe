// Long rich_text values are sanitized a slice at a time, between turns of the event loop, and
// the decoders take the result instead of sanitizing on the spot.
import { describe, expect, it } from "vitest";
import {
  decodeForm,
  decodeJsonCreate,
  decodeJsonUpdate,
  defineModel,
  MAX_TEXT_BYTES,
  prepareRichText,
  RICH_TEXT_SLICE,
  sanitizeRichText,
  sanitizeRichTextAsync,
  TOO_LONG,
} from "../src/index.js";

const model = defineModel("post", ["title:string", "body:rich_text?", "summary:rich_text?"]);
const nested = "<b>".repeat(100_000);
const editorParagraphs = '<p class="x">Some <em>text</em> &amp; a <a href="/a">link</a></p>'.repeat(
  2_000,
);

describe("sanitizeRichTextAsync", () => {
  it("gives what sanitizeRichText gives, for long and short markup", async () => {
    for (const html of [nested, editorParagraphs, "<p>short</p>", "plain text", ""]) {
      expect(await sanitizeRichTextAsync(html)).toBe(sanitizeRichText(html));
    }
  });

  it("lets timers run while it works through a long value", async () => {
    const order: string[] = [];
    const ticks = setInterval(() => order.push("tick"), 0);
    const sanitizing = sanitizeRichTextAsync(nested).then(() => order.push("done"));
    await sanitizing;
    clearInterval(ticks);
    // 300,000 characters are read in five slices, and the interval runs between them.
    expect(order.indexOf("tick")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("tick")).toBeLessThan(order.indexOf("done"));
  });

  it("finishes within one turn for a value shorter than a slice", async () => {
    const order: string[] = [];
    const timer = setTimeout(() => order.push("timer"), 0);
    await sanitizeRichTextAsync("<b>".repeat(RICH_TEXT_SLICE / 4)).then(() => order.push("done"));
    clearTimeout(timer);
    expect(order).toEqual(["done"]);
  });
});

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
