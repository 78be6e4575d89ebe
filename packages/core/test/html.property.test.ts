import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { html } from "../src/index.js";

/** Decodes the five entities escapeHtml writes, written independently of it. */
function decodeEntities(markup: string): string {
  return markup.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name]!,
  );
}

const htmlish = fc.oneof(
  fc.string({ unit: "binary" }),
  fc
    .array(fc.constantFrom("&", "<", ">", '"', "'", "amp;", "lt;", "</p>", "<script>", "a", "é"))
    .map((parts) => parts.join("")),
);

describe("html properties", () => {
  it("gives back exactly the interpolated text once its entities are decoded", () => {
    fc.assert(
      fc.property(htmlish, (text) => {
        const markup = html`<p>${text}</p>`.toString();
        expect(markup.startsWith("<p>") && markup.endsWith("</p>")).toBe(true);
        expect(decodeEntities(markup.slice("<p>".length, -"</p>".length))).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it("never lets a < or > of the text into the markup", () => {
    fc.assert(
      fc.property(htmlish, htmlish, (first, second) => {
        const markup = html`<p title="${first}">${[first, second]}</p>`.toString();
        expect(markup.split("<").length).toBe(3);
        expect(markup.split(">").length).toBe(3);
        expect(markup.slice(`<p title="`.length).split('"').length).toBe(2);
      }),
      { numRuns: 1000 },
    );
  });
});
