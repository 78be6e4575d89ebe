import { describe, expect, it } from "vitest";
import { escapeHtml } from "../src/index.js";

describe("escapeHtml", () => {
  it("escapes the five characters that matter in text and quoted attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;",
    );
  });

  it("escapes an existing entity again, so text shows as typed", () => {
    expect(escapeHtml("&amp; &#39;")).toBe("&amp;amp; &amp;#39;");
  });

  it("leaves other text, Unicode included, as it is", () => {
    expect(escapeHtml("Zoë 🔑 — 100% / `ok`")).toBe("Zoë 🔑 — 100% / `ok`");
    expect(escapeHtml("")).toBe("");
  });
});
