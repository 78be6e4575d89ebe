import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const appFolder = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Runs `probe` (a path from the app's folder) as `npm start` runs `src/main.ts`: the same Node
 * arguments (its loader), from the app's folder, to its end. For tests of what the start
 * command itself brings about.
 * @throws {Error} when the start script no longer runs `node`.
 */
export function runLikeNpmStart(
  probe: string,
  environment?: NodeJS.ProcessEnv,
): SpawnSyncReturns<string> {
  const { scripts } = JSON.parse(readFileSync(`${appFolder}/package.json`, "utf8"));
  const [command, ...nodeArguments] = (scripts.start as string).split(" ");
  if (command !== "node") throw new Error(`npm start runs ${command}, not node`);
  nodeArguments.splice(-1, 1, probe);
  return spawnSync(process.execPath, nodeArguments, {
    cwd: appFolder,
    encoding: "utf8",
    ...(environment ? { env: environment } : {}),
  });
}
