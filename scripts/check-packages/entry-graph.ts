import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";

/** What one entry's source loads: the package's own files, and the bare specifiers they import. */
export interface EntryGraph {
  /** Absolute paths of the package's source files the entry reaches, itself included. */
  readonly files: ReadonlySet<string>;
  /** Every bare import of those files (`@tessera/sql`, `jose`, `node:fs`), in the order met. */
  readonly bareImports: ReadonlySet<string>;
}

/**
 * `./store.js` → `./store.ts`: the sources import by the built file's name. A declaration file
 * (`./api.js` → `./api.d.ts`, types generated from a schema) stands for itself.
 */
export function sourceOf(fromFile: string, specifier: string): string {
  const target = resolve(dirname(fromFile), specifier);
  const candidates = [
    target.replace(/\.js$/, ".ts"),
    target.replace(/\.js$/, ".d.ts"),
    `${target}.ts`,
    join(target, "index.ts"),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`${fromFile} imports ${specifier}, which has no source file`);
  return found;
}

/**
 * The import graph of a source entry, read with TypeScript's scanner (`ts.preProcessFile`) and
 * without a program or a build, so a test can afford it for every entry. Type-only imports
 * count: they become imports of the published `.d.ts`, which a user's compiler resolves.
 */
export function entryGraph(entryFile: string): EntryGraph {
  const files = new Set<string>();
  const bareImports = new Set<string>();
  const pending = [resolve(entryFile)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (specifier.startsWith(".")) pending.push(sourceOf(file, specifier));
      else bareImports.add(specifier);
    }
  }
  return { files, bareImports };
}
