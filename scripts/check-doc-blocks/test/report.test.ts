import { describe, expect, it } from "vitest";
import type { DocProgram } from "../blocks.js";
import { problemLines } from "../report.js";

const program: DocProgram = {
  document: "packages/fields/README.md",
  block: { code: "", line: 10 },
  virtualFile: "/repo/readme-fields.ts",
};
const canaryError = [{ line: 2, message: "Argument of type 'number' is not assignable" }];

describe("problemLines", () => {
  it("names each error at its line of the Markdown file", () => {
    const errors = new Map([
      [program.virtualFile, [{ line: 3, message: "Cannot find name 'db'." }]],
      ["/repo/canary.ts", canaryError],
    ]);
    expect(problemLines([program], errors, "/repo/canary.ts")).toEqual([
      "packages/fields/README.md:12: Cannot find name 'db'.",
    ]);
  });

  it("is empty when the docs compile and the canary does not", () => {
    const errors = new Map([
      [program.virtualFile, []],
      ["/repo/canary.ts", canaryError],
    ]);
    expect(problemLines([program], errors, "/repo/canary.ts")).toEqual([]);
  });

  it("fails when the canary compiles: a check that finds nothing proves nothing", () => {
    const errors = new Map([
      [program.virtualFile, []],
      ["/repo/canary.ts", []],
    ]);
    expect(problemLines([program], errors, "/repo/canary.ts")).toEqual([
      "the canary program type-checked: the docs' type check is finding nothing",
    ]);
  });
});
