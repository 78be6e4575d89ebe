// Long values are sanitized a slice at a time, between turns of the event loop, to exactly
// what one call gives.
import { describe, expect, it } from "vitest";
import { RICH_TEXT_SLICE, sanitizeRichText, sanitizeRichTextAsync } from "../src/index.js";

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
