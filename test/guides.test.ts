// The line counts docs/guides/README.md reports are those of the guides' programs. That the
// programs type-check is `npm run typecheck`'s (scripts/check-doc-blocks), with every package
// README's first block, in one TypeScript program: one per test would cost seconds each.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { firstTsBlock } from "../scripts/check-doc-blocks/blocks.js";

const repository = join(import.meta.dirname, "..");
const guides = join(repository, "docs/guides");

/** The count the measure table gives for a row. */
function reportedLines(row: string): number {
  const table = readFileSync(join(guides, "README.md"), "utf8");
  const match = new RegExp(`\\| ${row} \\| (\\d+) \\|`).exec(table);
  if (!match) throw new Error(`no row ${row}`);
  return Number(match[1]);
}

describe.each([
  ["express.md", "Tessera, Express"],
  ["fastify.md", "Tessera, Fastify"],
  ["hono.md", "Tessera, Hono"],
])("docs/guides/%s", (guide, row) => {
  it("has the line count the measure table reports", () => {
    const block = firstTsBlock(readFileSync(join(guides, guide), "utf8"));
    const lines = block!.code.split("\n").filter((line) => line.trim() !== "");
    expect(lines.length).toBe(reportedLines(row));
  });
});

describe("the install lines before the packages are on npm", () => {
  // Without the local registry `npm install @tessera/…` answers E404: every page with an
  // install line says how to install from it, as the root README does.
  const pages = [
    ...[
      "express.md",
      "fastify.md",
      "hono.md",
      "nextjs-webhooks.md",
      "typed-fields-form.md",
      "front-end.md",
    ].map((guide) => join(guides, guide)),
    join(repository, "packages/webhooks/README.md"),
  ];
  it.each(pages)("%s names the local registry beside its npm install line", (page) => {
    const text = readFileSync(page, "utf8");
    expect(text).toMatch(/npm install [^\n]*@tessera\//);
    expect(text).toContain("`npm run registry`");
    expect(text).toContain("--registry http://127.0.0.1:4873");
  });
});
