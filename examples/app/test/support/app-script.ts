import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const appFolder = fileURLToPath(new URL("../..", import.meta.url));
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");

/**
 * Runs one of the app's `npm run` scripts (`src/sweep.ts`) in `cwd` as npm would, with only
 * `environment` (and PATH) set, and waits for it to exit.
 */
export function runAppScript(script: string, cwd: string, environment: Record<string, string>) {
  return spawnSync(process.execPath, [tsxCli, join(appFolder, script)], {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "",
      TSX_TSCONFIG_PATH: join(appFolder, "tsconfig.json"),
      ...environment,
    },
  });
}
