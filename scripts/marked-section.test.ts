import { describe, expect, it } from "vitest";
import { markedSection, replaceMarkedSection } from "./marked-section.js";

describe("marked sections", () => {
  const document =
    "# Benchmarks\n\nintro\n\n<!-- sizes:start -->\nold table\n<!-- sizes:end -->\n\n## Later\n";

  it("replaces only the text between the markers", () => {
    expect(replaceMarkedSection(document, "sizes", "new $& table\n")).toBe(
      "# Benchmarks\n\nintro\n\n<!-- sizes:start -->\nnew $& table\n<!-- sizes:end -->\n\n## Later\n",
    );
  });

  it("appends the section to a document without it", () => {
    expect(replaceMarkedSection("# Benchmarks\n", "sizes", "table")).toBe(
      "# Benchmarks\n\n<!-- sizes:start -->\ntable\n<!-- sizes:end -->\n",
    );
  });

  it("reads a section back, markers included, or nothing", () => {
    expect(markedSection(document, "sizes")).toBe(
      "<!-- sizes:start -->\nold table\n<!-- sizes:end -->",
    );
    expect(markedSection(document, "other")).toBeUndefined();
  });
});
