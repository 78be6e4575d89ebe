// The framework guides' programs type-check against the packages as they are, and the line
// counts docs/guides/README.md reports are theirs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repository = join(import.meta.dirname, "..");
const guides = join(repository, "docs/guides");

/** The first ```ts block of a guide: its whole program. */
function program(guide: string): string {
  const text = readFileSync(join(guides, guide), "utf8");
  const block = /```ts\n([\s\S]*?)```/.exec(text);
  if (!block) throw new Error(`${guide} has no ts block`);
  return block[1]!;
}

/** The count the measure table gives for a row. */
function reportedLines(row: string): number {
  const table = readFileSync(join(guides, "README.md"), "utf8");
  const match = new RegExp(`\\| ${row} \\| (\\d+) \\|`).exec(table);
  if (!match) throw new Error(`no row ${row}`);
  return Number(match[1]);
}

/** Type errors of `source` compiled as if it were a file of `examples/<example>/src`. */
function typeErrors(example: string, source: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(repository, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  )!;
  const file = join(repository, "examples", example, "src", "guide-program.ts");
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => (name === file ? source : readFile(name));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const compiled = ts.createProgram([file], { ...config.options, noEmit: true }, host);
  return ts
    .getPreEmitDiagnostics(compiled)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

describe.each([
  ["express.md", "express", "Tessera, Express"],
  ["fastify.md", "fastify", "Tessera, Fastify"],
  ["hono.md", "hono", "Tessera, Hono"],
])("docs/guides/%s", (guide, example, row) => {
  it("has the line count the measure table reports", () => {
    const lines = program(guide)
      .split("\n")
      .filter((line) => line.trim() !== "");
    expect(lines.length).toBe(reportedLines(row));
  });

  it("type-checks against the packages", () => {
    expect(typeErrors(example, program(guide))).toEqual([]);
  }, 60_000);
});

describe("the guides' type check", () => {
  it("finds a program's errors (it is not vacuous)", () => {
    const errors = typeErrors(
      "express",
      'import { graphqlApi } from "@tessera/graphql";\ngraphqlApi();',
    );
    expect(errors.join("\n")).toMatch(/graphqlApi/);
  }, 60_000);
});
