import { existsSync, readFileSync } from "node:fs";
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

describe("tsconfig.json's paths", () => {
  // Before `npm run build` a subpath without a mapping resolves to a dist/ that is not there yet,
  // and CI type-checks (the documented programs included) before it builds.
  it("map every entry to its source, as the API reference reads it", () => {
    const { paths } = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8"))
      .compilerOptions as { paths: Record<string, string[]> };
    const mapped = (specifier: string) => {
      if (paths[specifier]) return join(root, paths[specifier][0]!);
      const [scope, name, ...rest] = specifier.split("/");
      const pattern = rest.length === 0 ? `${scope}/*` : `${scope}/*/${rest.join("/")}`;
      return paths[pattern] && join(root, paths[pattern][0]!.replace("*", name!));
    };
    for (const entry of apiEntries(workspacePackages(root))) {
      expect({ specifier: entry.specifier, source: mapped(entry.specifier) }).toEqual({
        specifier: entry.specifier,
        source: entry.sourceFile,
      });
    }
  });
});
