import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** This package's folder (templates/, package.json): above src/ from the sources, above dist/ when built. */
export function packageFolder(): string {
  // The CommonJS build has no import.meta, and its __dirname is dist/; ES modules have no
  // __dirname.
  const here = typeof __dirname === "string" ? __dirname : dirname(fileURLToPath(import.meta.url));
  return join(here, "..");
}

/** This package's own version: the `@tessera/*` packages a project or `--install` adds are at it. */
export function cliVersion(): string {
  const own = JSON.parse(readFileSync(join(packageFolder(), "package.json"), "utf8")) as {
    version: string;
  };
  return own.version;
}
