import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const appFolder = fileURLToPath(new URL("..", import.meta.url));
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");

/** The example app in its own process (so the load generator does not share its thread). */
export interface AppProcess {
  readonly url: string;
  /** The process `npm start` would be: its descendants are the app's processes. */
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `src/main.ts` as `npm start` does in production (`NODE_ENV=production`, mail to the
 * log), on a free port and a temporary SQLite file (or the `DATABASE_URL` of `environment`).
 */
export async function startAppProcess(
  environment: Record<string, string> = {},
): Promise<AppProcess> {
  const folder = mkdtempSync(join(tmpdir(), "tessera-bench-"));
  const child: ChildProcess = spawn(process.execPath, [tsxCli, join(appFolder, "src/main.ts")], {
    cwd: folder,
    env: {
      PATH: process.env.PATH ?? "",
      TSX_TSCONFIG_PATH: join(appFolder, "tsconfig.json"),
      PORT: "0",
      NODE_ENV: "production",
      MAIL_ADAPTER: "log",
      SECRET_KEY_BASE: "bench-secret-".repeat(4),
      ...environment,
    },
    stdio: ["ignore", "pipe", "inherit"],
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
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => {
          rmSync(folder, { recursive: true, force: true });
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}
