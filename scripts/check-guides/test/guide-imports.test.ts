import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { guideImports, readGuideImports } from "../guide-imports.js";

describe("guideImports", () => {
  it("lists each package the ts blocks import once, without relative files or Node's modules", () => {
    const markdown = [
      "```sh",
      'import { no } from "shell-is-not-code";',
      "```",
      "```ts",
      'import { a } from "@tessera/http";',
      'import { readFileSync } from "node:fs";',
      "import {",
      "  b,",
      "  c,",
      '} from "@tessera/webhooks/sql";',
      "```",
      "```ts",
      'import { d } from "../../src/tessera";',
      'import { e } from "@tessera/http";',
      "```",
    ].join("\n");
    expect(guideImports(markdown)).toEqual(["@tessera/http", "@tessera/webhooks/sql"]);
  });

  it("reads the Next.js guide's packages, which check:guides loads after its install line", () => {
    const guide = join(import.meta.dirname, "../../../docs/guides/nextjs-webhooks.md");
    expect(readGuideImports(guide)).toEqual([
      "@tessera/http",
      "@tessera/webhooks/sql",
      "@tessera/sqlite/better-sqlite3",
      "@tessera/webhooks",
    ]);
  });
});
