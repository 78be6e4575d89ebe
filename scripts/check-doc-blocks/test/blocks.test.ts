import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { docPrograms, firstTsBlock, GUIDE_EXAMPLES, tsdocExamples } from "../blocks.js";

describe("firstTsBlock", () => {
  it("takes the first ```ts block and the line its code starts on", () => {
    const markdown = [
      "# Title", // 1
      "```sh", // 2
      "npm install", // 3
      "```", // 4
      "```ts", // 5
      "const a = 1;", // 6
      "const b = `x```y`;", // 7: a fence inside a line does not end the block
      "```", // 8
      "```ts",
      "const second = 2;",
      "```",
    ].join("\n");
    expect(firstTsBlock(markdown)).toEqual({
      code: "const a = 1;\nconst b = `x```y`;\n",
      line: 6,
    });
  });

  it("finds none in a file with only other languages (```typescript is not ```ts)", () => {
    expect(firstTsBlock("```sh\nls\n```\n```typescript\nconst a = 1;\n```\n")).toBeUndefined();
  });
});

describe("docPrograms", () => {
  const root = join(import.meta.dirname, "..", "..", "..");
  const programs = docPrograms(root);

  it("takes every package README and the framework guides", () => {
    const documents = programs.map((program) => program.document);
    expect(documents).toContain("packages/cli/README.md");
    expect(documents).toContain("packages/sqlite/README.md");
    for (const guide of Object.keys(GUIDE_EXAMPLES)) {
      expect(documents).toContain(`docs/guides/${guide}`);
    }
  });

  it("compiles a guide as a file of its example, so it sees that example's dependencies", () => {
    const express = programs.find((program) => program.document === "docs/guides/express.md");
    expect(express?.virtualFile).toBe(join(root, "examples/express/src/guide-program.ts"));
  });

  it("takes the @example blocks of the packages' sources", () => {
    const documents = programs.map((program) => program.document);
    expect(documents).toContain("packages/password/src/password-hashing.ts");
  });

  it("gives each program a file of its own", () => {
    const files = programs.map((program) => program.virtualFile);
    expect(new Set(files).size).toBe(files.length);
  });
});

describe("tsdocExamples", () => {
  it("takes each @example's ts block without the comment's stars, at its line", () => {
    const source = [
      "/**", // 1
      " * Adds.", // 2
      " *", // 3
      " * @example", // 4
      " * ```ts", // 5
      ' * import { add } from "@tessera/math";', // 6
      " *", // 7
      " * add(1, 2); // 3", // 8
      " * ```", // 9
      " */", // 10
      "export function add(a: number, b: number): number {",
      "  return a + b;",
      "}",
    ].join("\n");
    expect(tsdocExamples(source)).toEqual([
      { code: 'import { add } from "@tessera/math";\n\nadd(1, 2); // 3\n', line: 6 },
    ]);
  });

  it("refuses an example whose block is never closed", () => {
    expect(() => tsdocExamples("/**\n * @example\n * ```ts\n * add(1, 2);\n */")).toThrow(
      /not closed/,
    );
  });
});
