import { describe, expect, it } from "vitest";
import {
  benchSectionFiles,
  datedSection,
  removeBenchSection,
  replaceBenchSection,
} from "../bench/bench-sections.js";

const document = [
  "# Benchmarks",
  "",
  "<!-- examples/app/bench/limit.bench.ts -->",
  "## limit",
  "old limit",
  "",
  "<!-- examples/app/bench/bearer.bench.ts -->",
  "## bearer",
  "old bearer",
  "",
  "<!-- install-footprint:start -->",
  "## Install footprint",
  "<!-- install-footprint:end -->",
  "",
].join("\n");

describe("the sections of docs/benchmarks.md", () => {
  it("lists the bench files in the document's order, not the other generators' sections", () => {
    expect(benchSectionFiles(document)).toEqual([
      "examples/app/bench/limit.bench.ts",
      "examples/app/bench/bearer.bench.ts",
    ]);
  });

  it("replaces a section where it stands, leaving the others as they were", () => {
    const replaced = replaceBenchSection(
      document,
      "examples/app/bench/bearer.bench.ts",
      "## bearer\nnew $& bearer\n",
    );
    expect(replaced).toBe(
      document.replace("## bearer\nold bearer", () => "## bearer\nnew $& bearer"),
    );
    // The limit section, which a file-name order would put after bearer, stays first.
    expect(benchSectionFiles(replaced)).toEqual(benchSectionFiles(document));
  });

  it("replaces the last section of a document with no other after it", () => {
    const last = "# B\n\n<!-- a.bench.ts -->\n## a\nold\n";
    expect(replaceBenchSection(last, "a.bench.ts", "## a\nnew")).toBe(
      "# B\n\n<!-- a.bench.ts -->\n## a\nnew\n",
    );
  });

  it("adds a new bench's section after the last bench section, before the footprint", () => {
    const added = replaceBenchSection(document, "packages/mail/bench/send.bench.ts", "## mail");
    expect(benchSectionFiles(added)).toEqual([
      "examples/app/bench/limit.bench.ts",
      "examples/app/bench/bearer.bench.ts",
      "packages/mail/bench/send.bench.ts",
    ]);
    expect(added).toContain(
      "old bearer\n\n<!-- packages/mail/bench/send.bench.ts -->\n## mail\n\n<!-- install-footprint:start -->",
    );
    expect(replaceBenchSection("# B\n", "a.bench.ts", "## a")).toBe(
      "# B\n\n<!-- a.bench.ts -->\n## a\n",
    );
  });

  it("removes a deleted bench's section and nothing else", () => {
    expect(removeBenchSection(document, "examples/app/bench/limit.bench.ts")).toBe(
      document.replace("<!-- examples/app/bench/limit.bench.ts -->\n## limit\nold limit\n\n", ""),
    );
    expect(removeBenchSection(document, "missing.bench.ts")).toBe(document);
  });

  it("dates a section under its heading", () => {
    expect(datedSection("\n## limit\n\ntable\n", "2026-11-27")).toBe(
      "## limit\n\nMeasured 2026-11-27.\n\ntable",
    );
  });
});
