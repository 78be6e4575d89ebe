import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeHtml } from "../src/index.js";

/** The exact inverse of escapeHtml, written independently of it. */
function unescapeHtml(html: string): string {
  return html
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");
}

const htmlish = fc.oneof(
  fc.string({ unit: "binary" }),
  fc
    .array(fc.constantFrom("&", "<", ">", '"', "'", "amp;", "lt;", "#39;", "a", "é"))
    .map((p) => p.join("")),
);

describe("escapeHtml properties", () => {
  it("never leaves a raw < > \" ' and only & that start one of its entities", () => {
    fc.assert(
      fc.property(htmlish, (text) => {
        const escaped = escapeHtml(text);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(escaped.replace(/&(amp|lt|gt|quot|#39);/g, "")).not.toContain("&");
      }),
      { numRuns: 1000 },
    );
  });

  it("is undone exactly by unescaping", () => {
    fc.assert(
      fc.property(htmlish, (text) => {
        expect(unescapeHtml(escapeHtml(text))).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });
});
