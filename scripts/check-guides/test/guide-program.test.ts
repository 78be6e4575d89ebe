import { readFileSync } from "node:fs";
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

  it("takes the first ts block of an On Bun section as the Bun program", () => {
    const guide = [
      "```sh\nnpm install x\n```",
      "```ts\nnode();\n```",
      "## On Bun",
      "```sh\nbun add x\n```",
      "```ts\nbun();\n```",
      "```ts\nnot this one\n```",
    ].join("\n");
    expect(guideSteps(guide)).toMatchObject({ program: "node();\n", bunProgram: "bun();\n" });
    expect(guideSteps("```sh\nnpm install x\n```\n```ts\nx\n```")).not.toHaveProperty("bunProgram");
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

describe.each(["express.md", "fastify.md", "hono.md"])("docs/guides/%s on Bun", (guide) => {
  it("adds with bun what its Bun program imports, and opens SQLite with bun:sqlite", () => {
    const markdown = readFileSync(join(guides, guide), "utf8");
    const { bunProgram = "" } = readGuide(join(guides, guide));
    const onBun = markdown.split(/^## On Bun$/m)[1] ?? "";
    const added = [...onBun.matchAll(/^bun add (.*)$/gm)].flatMap((m) => m[1]!.split(" "));
    const imported = [...bunProgram.matchAll(/from "((?:@[^/"]+\/)?[^/"]+)/g)].map((m) => m[1]!);
    const fromPackages = imported.filter((name) => !/^(node|bun):/.test(name));
    expect(fromPackages.filter((name) => !added.includes(name))).toEqual([]);
    expect(bunProgram).toContain('from "bun:sqlite"');
    expect(bunProgram).toContain('from "@tessera/sqlite/bun"');
    expect(added).not.toContain("better-sqlite3");
  });
});
