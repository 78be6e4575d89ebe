import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { missingPackages } from "./app-packages.js";
import { NPM_RANGES } from "./new-project-versions.js";
import { cliVersion } from "./package-folder.js";

/** The fields of package.json that `--install` adds to. */
export type DependencyField = "dependencies" | "devDependencies";

/** What `--install` adds to the app's package.json: name → range, by field. */
export type PackageAdditions = Readonly<Record<DependencyField, Readonly<Record<string, string>>>>;

/**
 * The range `--install` writes for `name`: this CLI's own version for a `@tessera/*` package (they
 * are released together), the range `tessera new` writes for the npm packages it knows;
 * undefined for any other, which the app installs itself.
 */
export function rangeFor(name: string): string | undefined {
  if (name.startsWith("@tessera/")) return cliVersion();
  return Object.hasOwn(NPM_RANGES, name) ? NPM_RANGES[name as keyof typeof NPM_RANGES] : undefined;
}

/**
 * The packages `files` import that the app's package.json does not list, sorted into what
 * `--install` adds (to `devDependencies` when only files under test/ import it, else to
 * `dependencies`) and those it has no range for (`unknown`, for the install line).
 */
export function packageAdditions(
  root: string,
  files: ReadonlyArray<readonly [path: string, content: string]>,
): { readonly additions: PackageAdditions; readonly unknown: readonly string[] } {
  const missing = missingPackages(root, files);
  const importedOutsideTests = new Set(
    missingPackages(
      root,
      files.filter(([path]) => !path.startsWith("test/")),
    ),
  );
  const additions: Record<DependencyField, Record<string, string>> = {
    dependencies: {},
    devDependencies: {},
  };
  const unknown: string[] = [];
  for (const name of missing) {
    const range = rangeFor(name);
    if (range === undefined) unknown.push(name);
    else
      additions[importedOutsideTests.has(name) ? "dependencies" : "devDependencies"][name] = range;
  }
  return { additions, unknown };
}

/**
 * Writes `additions` into `root`/package.json, each field's names sorted as npm writes them and
 * the file's own indentation kept; nothing is installed (the app runs its `npm install`).
 */
export function addToManifest(root: string, additions: PackageAdditions): void {
  const path = join(root, "package.json");
  const text = readFileSync(path, "utf8");
  const manifest = JSON.parse(text) as Record<string, unknown>;
  for (const field of ["dependencies", "devDependencies"] as const) {
    if (Object.keys(additions[field]).length === 0) continue;
    const listed = manifest[field];
    const entries = {
      ...(listed && typeof listed === "object" ? (listed as Record<string, string>) : {}),
      ...additions[field],
    };
    manifest[field] = Object.fromEntries(
      Object.entries(entries).sort(([a], [b]) => a.localeCompare(b, "en")),
    );
  }
  const indent = /^\{\r?\n([ \t]+)"/.exec(text)?.[1] ?? "  ";
  writeFileSync(path, `${JSON.stringify(manifest, null, indent)}\n`);
}
