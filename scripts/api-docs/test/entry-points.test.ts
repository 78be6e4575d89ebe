import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspacePackages } from "../../check-packages/workspace-packages.js";
import { apiEntries } from "../entry-points.js";

const root = join(import.meta.dirname, "..", "..", "..");

describe("apiEntries", () => {
  const entries = apiEntries(workspacePackages(root));

  it("documents every subpath of every package's exports, from its source file", () => {
    expect(entries).toContainEqual({
      specifier: "@tessera/accounts",
      sourceFile: join(root, "packages/accounts/src/index.ts"),
    });
    expect(entries).toContainEqual({
      specifier: "@tessera/accounts/sql",
      sourceFile: join(root, "packages/accounts/src/sql.ts"),
    });
    expect(entries).toContainEqual({
      specifier: "@tessera/sqlite/d1",
      sourceFile: join(root, "packages/sqlite/src/d1.ts"),
    });
  });

  it("names no entry a package does not export (sqlite and postgres have no main entry)", () => {
    const specifiers = entries.map((entry) => entry.specifier);
    expect(specifiers).not.toContain("@tessera/sqlite");
    expect(specifiers).not.toContain("@tessera/postgres");
    expect(new Set(specifiers).size).toBe(specifiers.length);
  });

  it("finds a source file for each entry", () => {
    expect(entries.filter((entry) => !existsSync(entry.sourceFile))).toEqual([]);
  });
});
