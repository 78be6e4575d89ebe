import { basename, join } from "node:path";
import type { WorkspacePackage } from "../check-packages/workspace-packages.js";

/** One public entry's API report: where its built declarations are and where its report goes. */
export interface ReportedEntry {
  /** `@tessera/sqlite/d1`: what a user imports. */
  readonly specifier: string;
  /** The package folder (`packages/sqlite`). */
  readonly packageFolder: string;
  /** The built declarations of the entry: `packages/sqlite/dist/d1.d.ts`. */
  readonly declarationFile: string;
  /** `api/sqlite`: one folder of reports per package. */
  readonly reportFolder: string;
  /** `d1` (`index` for the package's main entry): the report is `<name>.api.md`. */
  readonly reportName: string;
}

/**
 * Every entry the packages' `exports` maps name, with its report under `<root>/api`: the main
 * entry's is `api/<package>/index.api.md`, a subpath's `api/<package>/<subpath>.api.md`, the
 * names tsup.config.ts builds by (`./sql` is `dist/sql.d.ts`).
 */
export function reportedEntries(
  root: string,
  packages: readonly WorkspacePackage[],
): ReportedEntry[] {
  return packages.flatMap(({ folder, entries }) =>
    entries.map(({ subpath, specifier }) => {
      const name = subpath === "." ? "index" : subpath.slice(2);
      return {
        specifier,
        packageFolder: folder,
        declarationFile: join(folder, "dist", `${name}.d.ts`),
        reportFolder: join(root, "api", basename(folder)),
        reportName: name,
      };
    }),
  );
}
