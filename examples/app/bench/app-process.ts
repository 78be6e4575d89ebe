import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const appFolder = fileURLToPath(new URL("..", import.meta.url));
const resolve = createRequire(import.meta.url).resolve;
// `npm start`'s loader (`node --import tsx/esm`), named by its path: the child's working
// folder is elsewhere.
const tsxEsmLoader = pathToFileURL(resolve("tsx/esm")).href;

/** The example app in its own process (so the load generator does not share its thread). */
export interface AppProcess {
  readonly url: string;
  /** The process `npm start` would be: its descendants are the app's processes. */
  readonly pid: number;
  /** That process, with an IPC channel when started with `nodeArguments`. */
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Options of {@link startAppProcess}. */
export interface AppProcessOptions {
  /**
   * Node arguments (`--expose-gc`, `--import <module>`) for the app
   * (`node --import tsx/esm <arguments> src/main.ts`), which then has an IPC channel, for a
   * bench that preloads a module into the app to talk to it.
   */
  readonly nodeArguments?: readonly string[];
}

/**
 * Starts `src/main.ts` as `npm start` does in production (`NODE_ENV=production`, mail to the
 * log, requests for 127.0.0.1 allowed), on a free port and a temporary SQLite file (or the
 * `DATABASE_PATH` or `DATABASE_URL` of `environment`).
 */
export function startAppProcess(
  environment: Record<string, string> = {},
  options: AppProcessOptions = {},
): Promise<AppProcess> {
  return startServerProcess(join(appFolder, "src/main.ts"), environment, options);
}

/**
 * Starts a TypeScript server file in its own process, as {@link startAppProcess} starts the
 * app (same environment, a temporary working folder removed at `stop`), and resolves once it
 * prints `listening on <url>`.
 */
export async function startServerProcess(
  script: string,
  environment: Record<string, string> = {},
  options: AppProcessOptions = {},
): Promise<AppProcess> {
  const folder = mkdtempSync(join(tmpdir(), "tessera-bench-"));
  const command = ["--import", tsxEsmLoader, ...(options.nodeArguments ?? []), script];
  const child: ChildProcess = spawn(process.execPath, command, {
    cwd: folder,
    env: {
      PATH: process.env.PATH ?? "",
      TSX_TSCONFIG_PATH: join(appFolder, "tsconfig.json"),
      PORT: "0",
      NODE_ENV: "production",
      // Production serves only the hosts it is told of (DESIGN: host check).
      ALLOWED_HOSTS: "127.0.0.1",
      MAIL_ADAPTER: "log",
      SECRET_KEY_BASE: "bench-secret-".repeat(4),
      // Production would look each new password up on the Internet: not what a bench measures.
      PWNED_PASSWORDS: "0",
      ...environment,
    },
    stdio: options.nodeArguments
      ? ["ignore", "pipe", "inherit", "ipc"]
      : ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      const match = output.match(/listening on (\S+)/);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the app exited with ${code}: ${output}`)));
  });
  return {
    url,
    pid: child.pid!,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        const removeFolder = () => {
          rmSync(folder, { recursive: true, force: true });
          resolve();
        };
        // A child that already exited (it failed, or a bench killed it) sends no second exit.
        if (child.exitCode !== null || child.signalCode !== null) return removeFolder();
        child.once("exit", removeFolder);
        child.kill("SIGTERM");
      }),
  };
}
