import { execFile, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));
const TSCONFIG = fileURLToPath(new URL("../../../../tsconfig.json", import.meta.url));
const TSX = import.meta.resolve("tsx/esm");

/** How a run of the command ended. */
export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The real `tessera` command (src/cli.ts through tsx) in `cwd`, with `env` added. */
export function tessera(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Run {
  const result = spawnSync(process.execPath, ["--import", TSX, CLI, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG, ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** {@link tessera} without waiting: for runs that race each other. */
export function tesseraAsync(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", TSX, CLI, ...args],
      { cwd, encoding: "utf8", env: { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG, ...env } },
      (error, stdout, stderr) =>
        resolve({
          status: error ? (typeof error.code === "number" ? error.code : 1) : 0,
          stdout,
          stderr,
        }),
    );
  });
}
