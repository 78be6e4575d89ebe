import { join } from "node:path";
import type { WorkspacePackage } from "../check-packages/workspace-packages.js";

/** One public entry: the specifier a user imports and the source file it is built from. */
export interface ApiEntry {
  readonly specifier: string;
  readonly sourceFile: string;
}

/**
 * Every entry the packages' `exports` maps name, with its source file: "." is `src/index.ts`,
 * "./sql" is `src/sql.ts` — the rule tsup.config.ts builds by, so the reference documents what
 * a user can import and nothing else.
 */
export function apiEntries(packages: readonly WorkspacePackage[]): ApiEntry[] {
  return packages.flatMap(({ folder, entries }) =>
    entries.map(({ subpath, specifier }) => ({
      specifier,
      sourceFile: join(folder, "src", `${subpath === "." ? "index" : subpath.slice(2)}.ts`),
    })),
  );
}
