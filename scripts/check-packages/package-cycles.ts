import { join } from "node:path";
import type { Finding } from "./findings.js";
import { entryImports } from "./runtime-imports.js";
import { packageNameOf, type WorkspacePackage } from "./workspace-packages.js";

/** The other workspace packages one package's published entries import. */
export interface PackageImports {
  readonly name: string;
  /** Those its entries load at run time. */
  readonly runtime: ReadonlySet<string>;
  /** All of them, those imported for types only included. */
  readonly all: ReadonlySet<string>;
}

/** `@tessera/accounts/sql` → `<folder>/src/sql.ts`, as tsup builds it; `cli` for a `bin`. */
export function entrySourceFile(folder: string, subpath: string): string {
  return join(folder, "src", `${subpath === "." ? "index" : subpath.slice(2)}.ts`);
}

/**
 * What each package's sources import from the other workspace packages, read from every entry
 * its `exports` names (and the command a `bin` starts), without a build.
 */
export function workspaceImports(packages: readonly WorkspacePackage[]): PackageImports[] {
  const names = new Set(packages.map((pkg) => pkg.manifest.name));
  return packages.map((pkg) => {
    const runtime = new Set<string>();
    const all = new Set<string>();
    const subpaths = [
      ...pkg.entries.map(({ subpath }) => subpath),
      ...(pkg.manifest.bin ? ["./cli"] : []),
    ];
    for (const subpath of subpaths) {
      const imports = entryImports(entrySourceFile(pkg.folder, subpath));
      for (const [specifiers, into] of [
        [imports.runtime, runtime],
        [imports.all, all],
      ] as const) {
        for (const specifier of specifiers) {
          const name = packageNameOf(specifier);
          if (name !== pkg.manifest.name && names.has(name)) into.add(name);
        }
      }
    }
    return { name: pkg.manifest.name, runtime, all };
  });
}

/** One cycle: the packages in import order, the first repeated at the end. */
export interface ImportCycle {
  readonly packages: readonly string[];
  /** For each step `packages[i] → packages[i + 1]`, whether it is a run-time import. */
  readonly runtime: readonly boolean[];
}

/**
 * Every cycle between packages that holds at least one run-time import: for each run-time
 * import `a → b`, the shortest way back from `b` to `a` through imports of any kind. A cycle
 * of type-only imports is left out (no module loads another in a loop), but one run-time step
 * is enough: the packages then need each other installed, and one loads the other while that
 * one may still be loading. Each cycle is given once, starting at its first package by name.
 */
export function runtimeImportCycles(imports: readonly PackageImports[]): ImportCycle[] {
  const byName = new Map(imports.map((pkg) => [pkg.name, pkg]));
  const cycles = new Map<string, ImportCycle>();
  for (const from of imports) {
    for (const to of from.runtime) {
      const back = shortestPath(byName, to, from.name);
      if (back === undefined) continue;
      const cycle = rotated([from.name, ...back], byName);
      cycles.set(cycle.packages.join(" "), cycle);
    }
  }
  return [...cycles.values()].sort((a, b) =>
    a.packages.join(" ").localeCompare(b.packages.join(" ")),
  );
}

/** The packages from `start` to `goal` (both included) through the fewest imports, if any. */
function shortestPath(
  byName: ReadonlyMap<string, PackageImports>,
  start: string,
  goal: string,
): string[] | undefined {
  const previous = new Map<string, string | undefined>([[start, undefined]]);
  const queue = [start];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    if (name === goal) {
      const path: string[] = [];
      for (let at: string | undefined = name; at !== undefined; at = previous.get(at)) {
        path.unshift(at);
      }
      return path;
    }
    for (const next of [...(byName.get(name)?.all ?? [])].sort()) {
      if (previous.has(next)) continue;
      previous.set(next, name);
      queue.push(next);
    }
  }
  return undefined;
}

/** `[b, c, a, b]` → `[a, b, c, a]`, with each step's kind. */
function rotated(closed: readonly string[], byName: ReadonlyMap<string, PackageImports>) {
  const open = closed.slice(0, -1);
  const first = open.indexOf([...open].sort()[0]!);
  const ring = [...open.slice(first), ...open.slice(0, first)];
  const packages = [...ring, ring[0]!];
  const runtime = ring.map((name, i) => byName.get(name)!.runtime.has(packages[i + 1]!));
  return { packages, runtime };
}

/** `a → b ⇢ a`: `→` a run-time import, `⇢` one of types only. */
export function describeCycle(cycle: ImportCycle): string {
  return cycle.packages
    .map((name, i) => (i === 0 ? name : `${cycle.runtime[i - 1] ? "→" : "⇢"} ${name}`))
    .join(" ");
}

/** A finding for each package of each cycle, so that checking any one of them reports it. */
export function importCycleFindings(cycles: readonly ImportCycle[]): Finding[] {
  return cycles.flatMap((cycle) =>
    cycle.packages.slice(0, -1).map((packageName) => ({
      packageName,
      check: "import-cycle" as const,
      detail: `${describeCycle(cycle)} (→ loads the next at run time, ⇢ imports its types only)`,
    })),
  );
}
