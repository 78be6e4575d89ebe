import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runCli } from "../../src/run.js";

const CLI = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));
const TSCONFIG = fileURLToPath(new URL("../../../../tsconfig.json", import.meta.url));
const TSX = import.meta.resolve("tsx/esm");

/** How a run of the command ended. */
export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The `tessera` command run in this process, as `src/cli.ts` runs it (`runCli` with the folder,
 * the environment and both streams), with `env` added to this process's. The command keeps no
 * state between runs and reads the app's files afresh each time, so this answers as the real
 * command does in a fraction of the time: a child process through tsx costs about 2 s of CPU.
 * `test/launcher.test.ts` runs the real binary; {@link tesseraProcess} is for runs that race.
 */
export async function tessera(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const status = await runCli(args, {
    cwd,
    env: { ...process.env, ...env },
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { status, stdout, stderr };
}

/**
 * The real `tessera` command (src/cli.ts through tsx) as a child process in `cwd`, with `env`
 * added: for runs that race each other, as two processes would.
 */
export function tesseraProcess(
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
