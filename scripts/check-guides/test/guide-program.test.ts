import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { guideSteps, readGuide } from "../guide-program.js";

const guides = join(import.meta.dirname, "..", "..", "..", "docs", "guides");

describe("guideSteps", () => {
  it("takes every npm install line of the sh blocks, and the first ts block", () => {
    const steps = guideSteps(
      [
        "```sh",
        "npm install hono @tessera/accounts",
        "npm install -D tsx",
        "```",
        "text",
        "```ts",
        "console.log(1);",
        "```",
        "```ts",
        "not this one",
        "```",
      ].join("\n"),
    );
    expect(steps).toEqual({
      installs: [
        ["install", "hono", "@tessera/accounts"],
        ["install", "-D", "tsx"],
      ],
      program: "console.log(1);\n",
    });
  });

  it("refuses a guide without an install line or a program", () => {
    expect(() => guideSteps("```ts\nx\n```")).toThrow(/no npm install line/);
    expect(() => guideSteps("```sh\nnpm install x\n```")).toThrow(/no ts block/);
  });
});

describe.each(["express.md", "fastify.md", "hono.md"])("docs/guides/%s", (guide) => {
  it("installs what it imports, a TypeScript runner and the types it needs", () => {
    const { installs, program } = readGuide(join(guides, guide));
    // `better-sqlite3@12` installs `better-sqlite3`.
    const installed = installs.flat().map((word) => word.replace(/(.)@[^/]*$/, "$1"));
    const imported = [...program.matchAll(/from "((?:@[^/"]+\/)?[^/"]+)/g)].map((m) => m[1]!);
    expect(imported.filter((name) => !installed.includes(name))).toEqual([]);
    expect(installed).toEqual(
      expect.arrayContaining(["typescript", "tsx", "@types/node", "@types/better-sqlite3"]),
    );
  });
});
