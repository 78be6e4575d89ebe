import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { entryGraph } from "../entry-graph.js";
import { optionalPeers, packageNameOf, workspacePackages } from "../workspace-packages.js";
import { folderWith } from "./fixture-folders.js";

const root = resolve(import.meta.dirname, "..", "..", "..");
const packages = workspacePackages(root);

/** `@tessera/accounts/sql` → `packages/accounts/src/sql.ts`, as tsup builds it. */
function sourceFileOf(folder: string, subpath: string): string {
  return join(folder, "src", `${subpath === "." ? "index" : subpath.slice(2)}.ts`);
}

describe("entryGraph", () => {
  it("follows relative imports of every kind through the package's files", () => {
    const folder = folderWith({
      "src/sql.ts": 'export { Store } from "./sql/store.js";',
      "src/sql/store.ts":
        'import type { Row } from "../row.js";\nimport { x } from "@tessera/sql";',
      "src/row.ts": 'export const load = () => import("./index.js");',
      "src/index.ts": 'import { sha256 } from "@noble/hashes/sha2.js";',
    });
    const graph = entryGraph(join(folder, "src/sql.ts"));
    expect([...graph.files].map((file) => file.slice(folder.length + 1)).sort()).toEqual([
      "src/index.ts",
      "src/row.ts",
      "src/sql.ts",
      "src/sql/store.ts",
    ]);
    expect([...graph.bareImports].sort()).toEqual(["@noble/hashes/sha2.js", "@tessera/sql"]);
  });
});

describe("the packages' subpath entries", () => {
  const subpathEntries = packages.flatMap((pkg) =>
    pkg.entries
      .filter(({ subpath }) => subpath !== ".")
      .map(({ subpath, specifier }) => ({ specifier, folder: pkg.folder, subpath })),
  );

  // `@tessera/accounts/sql` loading src/index.ts would load every route, page and mailer of the
  // package for a store.
  it.each(subpathEntries)("$specifier does not load the package's main entry", (entry) => {
    const graph = entryGraph(sourceFileOf(entry.folder, entry.subpath));
    expect(graph.files).not.toContain(resolve(sourceFileOf(entry.folder, ".")));
  });
});

describe("the packages' main entries", () => {
  const withOptionalPeers = packages
    .filter((pkg) => pkg.entries.some(({ subpath }) => subpath === "."))
    .map((pkg) => ({
      name: pkg.manifest.name,
      folder: pkg.folder,
      peers: Object.keys(optionalPeers(pkg.manifest)),
    }))
    .filter(({ peers }) => peers.length > 0);

  it("include @tessera/webhooks, whose store's @tessera/sql is an optional peer", () => {
    expect(withOptionalPeers.find(({ name }) => name === "@tessera/webhooks")?.peers).toContain(
      "@tessera/sql",
    );
  });

  // An optional peer is not installed for a user of the main entry (verifying webhooks must
  // not need storage): the entry, its types included, may not import one.
  it.each(withOptionalPeers)("$name imports none of its optional peers", (pkg) => {
    const imported = [...entryGraph(sourceFileOf(pkg.folder, ".")).bareImports].map(packageNameOf);
    expect(imported.filter((name) => pkg.peers.includes(name))).toEqual([]);
  });
});

describe("the packages' /testing entries", () => {
  const withTesting = packages.filter((pkg) =>
    pkg.entries.some(({ subpath }) => subpath === "./testing"),
  );
  const otherEntries = withTesting.flatMap((pkg) =>
    pkg.entries
      .filter(({ subpath }) => subpath !== "./testing")
      .map(({ subpath, specifier }) => ({ specifier, folder: pkg.folder, subpath })),
  );

  it("are the store packages' test kits", () => {
    expect(withTesting.map((pkg) => pkg.manifest.name)).toEqual(
      expect.arrayContaining(["@tessera/accounts", "@tessera/records", "@tessera/webhooks"]),
    );
  });

  // The suites are written with vitest's describe/it/expect, which a user of the store never
  // installs: only a test of a store of theirs does.
  it.each(withTesting)("$manifest.name declares vitest as an optional peer", (pkg) => {
    expect(optionalPeers(pkg.manifest)).toHaveProperty("vitest");
  });

  // The test kit is for test files: an app that imports the package (or its /sql store) must
  // load neither vitest nor a contract suite.
  it.each(otherEntries)("$specifier reaches neither vitest nor a /testing file", (entry) => {
    const graph = entryGraph(sourceFileOf(entry.folder, entry.subpath));
    expect([...graph.bareImports].map(packageNameOf)).not.toContain("vitest");
    const testingFiles = [
      resolve(sourceFileOf(entry.folder, "./testing")),
      resolve(entry.folder, "src/testing"),
    ];
    expect(
      [...graph.files].filter((file) => testingFiles.some((testing) => file.startsWith(testing))),
    ).toEqual([]);
  });
});
