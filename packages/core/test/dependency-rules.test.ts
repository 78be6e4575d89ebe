// The package layout rules, checked on the sources of every workspace package: what each
// package imports is what its package.json declares, and the few edges the layout forbids stay
// absent. (The packaging check, `npm run check:packages`, verifies the same on the built dists.)
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const packagesDir = join(import.meta.dirname, "..", "..");

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

const manifests = readdirSync(packagesDir)
  .filter((folder) =>
    statSync(join(packagesDir, folder, "package.json"), { throwIfNoEntry: false }),
  )
  .map((folder) => ({
    folder,
    manifest: JSON.parse(
      readFileSync(join(packagesDir, folder, "package.json"), "utf8"),
    ) as Manifest,
  }));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Package names (not subpaths) of the bare imports of a package's src, type imports included. */
function importedPackages(folder: string): Set<string> {
  // TypeScript's own scanner: comments and strings that merely look like imports do not count.
  const specifiers = sourceFiles(join(packagesDir, folder, "src")).flatMap((file) =>
    ts
      .preProcessFile(readFileSync(file, "utf8"), true, true)
      .importedFiles.map((imported) => imported.fileName)
      .filter((specifier) => !specifier.startsWith(".")),
  );
  return new Set(
    specifiers
      .filter((specifier) => !specifier.startsWith("node:"))
      .map((specifier) =>
        specifier
          .split("/")
          .slice(0, specifier.startsWith("@") ? 2 : 1)
          .join("/"),
      ),
  );
}

function declared(manifest: Manifest): Record<string, string> {
  return { ...manifest.dependencies, ...manifest.peerDependencies };
}

/**
 * Packages whose sources may import their devDependencies for types alone: @tessera/locale-fr
 * checks each catalog against its package's message ids when it is compiled, and neither its
 * built code nor its declarations import those packages (`npm run check:packages` verifies the
 * built side), so installing it never pulls them in.
 */
const TYPE_ONLY_DEV_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  "@tessera/locale-fr": [
    "@tessera/accounts",
    "@tessera/http",
    "@tessera/oauth",
    "@tessera/organizations",
    "@tessera/outbound",
    "@tessera/records",
    "@tessera/session",
  ],
};

function dependencyOf(folder: string): Manifest {
  return manifests.find((entry) => entry.folder === folder)!.manifest;
}

describe("package dependency rules", () => {
  it.each(manifests)(
    "$manifest.name declares every package its sources import",
    ({ folder, manifest }) => {
      const typeOnly = TYPE_ONLY_DEV_IMPORTS[manifest.name] ?? [];
      const undeclared = [...importedPackages(folder)].filter(
        (name) =>
          name !== manifest.name && !(name in declared(manifest)) && !typeOnly.includes(name),
      );
      expect(undeclared).toEqual([]);
    },
  );

  it.each(manifests)(
    "$manifest.name names its Tessera siblings at their own version",
    ({ manifest }) => {
      const siblings = Object.entries(declared(manifest)).filter(([name]) =>
        name.startsWith("@tessera/"),
      );
      for (const [name, range] of siblings) {
        const sibling = manifests.find((entry) => entry.manifest.name === name);
        expect(sibling, `${manifest.name} depends on ${name}`).toBeDefined();
        expect(range, `${manifest.name} → ${name}`).toBe(sibling!.manifest.version);
      }
    },
  );

  it("keeps @tessera/core free of dependencies", () => {
    expect(declared(dependencyOf("core"))).toEqual({});
    expect([...importedPackages("core")]).toEqual([]);
  });

  it.each([
    ["fields", "@tessera/http"],
    ["bearer", "@tessera/fields"],
    ["http", "@tessera/crypto"],
  ])("keeps %s off %s", (folder, forbidden) => {
    expect(Object.keys(declared(dependencyOf(folder)))).not.toContain(forbidden);
    expect([...importedPackages(folder)]).not.toContain(forbidden);
  });
});
