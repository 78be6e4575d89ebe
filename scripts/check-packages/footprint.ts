import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** What installing one package brings: the packages in node_modules/.pnpm and their size. */
export interface Footprint {
  /** Package names, the installed package included (`@tessera/core`, `sanitize-html`…). */
  readonly packages: readonly string[];
  /** Bytes of every file under node_modules/.pnpm (apparent size, symlinks not followed). */
  readonly bytes: number;
}

/** Measures node_modules/.pnpm of a project installed by pnpm with the isolated linker. */
export function measureFootprint(projectDir: string): Footprint {
  const virtualStore = join(projectDir, "node_modules", ".pnpm");
  const folders = readdirSync(virtualStore, { withFileTypes: true }).filter(
    (entry) => entry.isDirectory() && entry.name !== "node_modules",
  );
  return {
    packages: folders.map((entry) => packageNameOfStoreFolder(entry.name)).sort(),
    bytes: folders.reduce((sum, entry) => sum + treeBytes(join(virtualStore, entry.name)), 0),
  };
}

/** `@tessera+core@file+..+x.tgz` → `@tessera/core`; `postcss@8.5.3` → `postcss`. */
function packageNameOfStoreFolder(folder: string): string {
  const scoped = folder.startsWith("@");
  const name = folder.slice(0, folder.indexOf("@", scoped ? 1 : 0));
  return scoped ? name.replace("+", "/") : name;
}

function treeBytes(path: string): number {
  const stats = lstatSync(path);
  if (stats.isSymbolicLink()) return 0;
  if (!stats.isDirectory()) return stats.size;
  return readdirSync(path).reduce((sum, name) => sum + treeBytes(join(path, name)), 0);
}
