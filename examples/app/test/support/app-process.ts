import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type ProcessGroup, startProcessGroup } from "../../../../test/support/process-group.js";

const appFolder = fileURLToPath(new URL("../..", import.meta.url));
const resolve = createRequire(import.meta.url).resolve;
// The same command as `npm start`: `node --import tsx/esm src/main.ts`, the loader named by its
// path since the child's working directory is elsewhere.
const tsxEsmLoader = pathToFileURL(resolve("tsx/esm")).href;

/** The environment of a child: only `PATH`, the app's tsconfig for tsx, and `environment`. */
function childEnvironment(environment: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    TSX_TSCONFIG_PATH: join(appFolder, "tsconfig.json"),
    ...environment,
  };
}

/**
 * Runs one of the app's `npm run` scripts (`src/sweep.ts`) in `cwd` as npm would, with only
 * `environment` (and PATH) set, and waits for it to exit.
 */
export function runAppScript(script: string, cwd: string, environment: Record<string, string>) {
  return spawnSync(process.execPath, ["--import", tsxEsmLoader, join(appFolder, script)], {
    cwd,
    encoding: "utf8",
    env: childEnvironment(environment),
  });
}

/**
 * The app running in a child process, with everything it printed so far; `stop()` kills it
 * with its workers (call it from a hook: see {@link startProcessGroup}).
 */
export type AppProcess = ProcessGroup;

/**
 * Starts the app the way `npm start` does, with `folder` as its working directory and only
 * `PATH` and `environment` as its environment, in a process group of its own. The child is the
 * app itself (its primary, with WEB_CONCURRENCY): a SIGKILL or SIGSTOP to `child` reaches it.
 */
export function spawnApp(folder: string, environment: Record<string, string>): AppProcess {
  const command = ["--import", tsxEsmLoader, join(appFolder, "src/main.ts")];
  return startProcessGroup(process.execPath, command, {
    cwd: folder,
    env: childEnvironment(environment),
  });
}

/**
 * Waits (up to `timeoutMs`, 15 s by default) for the output to match `pattern`; throws with the
 * output otherwise.
 */
export async function waitForLine(
  output: () => string,
  pattern: RegExp,
  timeoutMs = 15_000,
): Promise<RegExpMatchArray> {
  for (let waited = 0; waited < timeoutMs; waited += 50) {
    const match = output().match(pattern);
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no line matching ${pattern} in: ${output()}`);
}

/**
 * Waits (up to `timeoutMs`, 45 s by default) for the ready line and returns the address the app
 * listens on. The app compiles its TypeScript as it starts: 16 s with a load of 18 on two cores,
 * which the 15 s every other line gets would not cover.
 */
export async function listeningUrl(app: AppProcess, timeoutMs = 45_000): Promise<string> {
  const [, url] = await waitForLine(app.output, /listening on (http:\/\/[^\s]+)\n/, timeoutMs);
  return url!;
}

/**
 * The ids of the app's processes (tsx's esbuild service aside) whose parent is `pid`, from
 * /proc: the workers of a cluster's primary, or the app under tsx's CLI.
 */
export function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return parent === pid && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("main.ts");
      } catch {
        return false;
      }
    })
    .map(Number);
}
