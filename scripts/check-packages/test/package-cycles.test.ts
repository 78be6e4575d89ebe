import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  describeCycle,
  importCycleFindings,
  type PackageImports,
  runtimeImportCycles,
  workspaceImports,
} from "../package-cycles.js";
import { entryImports, importStatements } from "../runtime-imports.js";
import { workspacePackages } from "../workspace-packages.js";
import { folderWith } from "./fixture-folders.js";

const root = resolve(import.meta.dirname, "..", "..", "..");

/** Packages importing others: `{ a: { runtime: ["b"], types: ["c"] } }`. */
function graph(
  packages: Record<string, { runtime?: string[]; types?: string[] }>,
): PackageImports[] {
  return Object.entries(packages).map(([name, { runtime = [], types = [] }]) => ({
    name,
    runtime: new Set(runtime),
    all: new Set([...runtime, ...types]),
  }));
}

describe("importStatements", () => {
  it("tells the imports that load a module from those of types only", () => {
    const text = [
      'import { a } from "@tessera/a";',
      'import type { B } from "@tessera/b";',
      // verbatimModuleSyntax keeps this one as `import {} from "@tessera/c"`: it loads c.
      'import { type C } from "@tessera/c";',
      'import "@tessera/d";',
      'export { e } from "@tessera/e";',
      'export type { F } from "@tessera/f";',
      'export * from "@tessera/g";',
      'const h = () => import("@tessera/h");',
      'type I = import("@tessera/i").I;',
      "// import { j } from '@tessera/j';",
    ].join("\n");
    expect(importStatements("index.ts", text)).toEqual([
      { specifier: "@tessera/a", runtime: true },
      { specifier: "@tessera/b", runtime: false },
      { specifier: "@tessera/c", runtime: true },
      { specifier: "@tessera/d", runtime: true },
      { specifier: "@tessera/e", runtime: true },
      { specifier: "@tessera/f", runtime: false },
      { specifier: "@tessera/g", runtime: true },
      { specifier: "@tessera/h", runtime: true },
      { specifier: "@tessera/i", runtime: false },
    ]);
  });
});

describe("entryImports", () => {
  it("counts a file's run-time imports only when loading the entry loads that file", () => {
    const folder = folderWith({
      "src/index.ts": 'import type { Store } from "./store.js";\nimport { run } from "./run.js";',
      "src/store.ts": 'import { sql } from "@tessera/sql";\nexport type Store = typeof sql;',
      "src/run.ts": 'import { ok } from "@tessera/core";\nimport "./store.js";',
      "src/other.ts": 'import { never } from "@tessera/never";',
    });
    expect(entryImports(join(folder, "src/index.ts"))).toEqual({
      runtime: new Set(["@tessera/core", "@tessera/sql"]),
      all: new Set(["@tessera/core", "@tessera/sql"]),
    });
    const typesOnly = folderWith({
      "src/index.ts": 'import type { Store } from "./store.js";\nexport type { Store };',
      "src/store.ts": 'import { sql } from "@tessera/sql";\nexport type Store = typeof sql;',
    });
    expect(entryImports(join(typesOnly, "src/index.ts"))).toEqual({
      runtime: new Set(),
      all: new Set(["@tessera/sql"]),
    });
  });
});

describe("runtimeImportCycles", () => {
  it("finds a cycle of run-time imports once, from its first package by name", () => {
    const cycles = runtimeImportCycles(
      graph({
        "@tessera/jobs": { runtime: ["@tessera/webhooks", "@tessera/core"] },
        "@tessera/webhooks": { runtime: ["@tessera/signer"] },
        "@tessera/signer": { runtime: ["@tessera/jobs", "@tessera/core"] },
        "@tessera/core": {},
      }),
    );
    expect(cycles.map(describeCycle)).toEqual([
      "@tessera/jobs → @tessera/webhooks → @tessera/signer → @tessera/jobs",
    ]);
  });

  it("finds a cycle closed by an import of types only, and leaves one of types only", () => {
    const closedByTypes = graph({
      "@tessera/hono": { runtime: ["@tessera/session"] },
      "@tessera/session": { types: ["@tessera/hono"] },
    });
    expect(runtimeImportCycles(closedByTypes).map(describeCycle)).toEqual([
      "@tessera/hono → @tessera/session ⇢ @tessera/hono",
    ]);
    expect(importCycleFindings(runtimeImportCycles(closedByTypes))).toEqual(
      ["@tessera/hono", "@tessera/session"].map((packageName) => ({
        packageName,
        check: "import-cycle",
        detail:
          "@tessera/hono → @tessera/session ⇢ @tessera/hono (→ loads the next at run time, ⇢ imports its types only)",
      })),
    );
    const typesOnly = graph({
      "@tessera/hono": { types: ["@tessera/session"] },
      "@tessera/session": { types: ["@tessera/hono"] },
    });
    expect(runtimeImportCycles(typesOnly)).toEqual([]);
  });

  it("finds none in a layered graph", () => {
    const layered = graph({
      "@tessera/hono": { runtime: ["@tessera/http"] },
      "@tessera/session": { runtime: ["@tessera/http", "@tessera/crypto"] },
      "@tessera/http": { runtime: ["@tessera/core"] },
      "@tessera/crypto": { runtime: ["@tessera/core"] },
      "@tessera/core": {},
    });
    expect(runtimeImportCycles(layered)).toEqual([]);
  });
});

describe("the workspace packages", () => {
  const imports = new Map(
    workspaceImports(workspacePackages(root)).map((pkg) => [pkg.name, pkg] as const),
  );

  it("import one another in no cycle with a run-time import", () => {
    expect(runtimeImportCycles([...imports.values()]).map(describeCycle)).toEqual([]);
  });

  // The layers the packages promise: the Hono adapter stands on http alone (the cookie session
  // is the app's to add), and jobs take the verifier of signed callbacks from the app.
  it("keep @tessera/hono on @tessera/http alone and @tessera/jobs off @tessera/webhooks", () => {
    expect([...imports.get("@tessera/hono")!.all]).toEqual(["@tessera/http"]);
    expect(imports.get("@tessera/jobs")!.all).not.toContain("@tessera/webhooks");
    expect(imports.get("@tessera/session")!.all).not.toContain("@tessera/hono");
    expect(imports.get("@tessera/webhooks")!.all).not.toContain("@tessera/jobs");
  });
});
