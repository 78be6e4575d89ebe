import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** The built files of an unpacked package: every `.js`, `.cjs`, `.d.ts` and `.d.cts` under dist/. */
export function distFiles(unpacked: string): { readonly path: string; readonly text: string }[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  return walk(join(unpacked, "dist"))
    .filter((path) => /\.(c?js|d\.c?ts)$/.test(path))
    .sort()
    .map((path) => ({ path: relative(unpacked, path), text: readFileSync(path, "utf8") }));
}
