import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";
import { startProcessGroup } from "../../../../test/support/process-group.js";
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
 * This process's environment, without the registry npm may have named to it (`npm run` or `npx`
 * under a config that names another registry): the commands' output depends on it, so a test
 * that wants one passes it in `env`.
 */
function inherited(): NodeJS.ProcessEnv {
  const { npm_config_registry: _lower, NPM_CONFIG_REGISTRY: _upper, ...rest } = process.env;
  return rest;
}

/**
 * The `tessera` command run in this process, as `src/cli.ts` runs it (`runCli` with the folder,
 * the environment and both streams), with `env` added to this process's (less any registry npm
 * named to it). The command keeps no
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
    env: { ...inherited(), ...env },
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
 * added: for runs that race each other, as two processes would. Call it inside a test: the
 * process is stopped when the test ends, so a run that hangs dies with the test that timed out.
 */
export async function tesseraProcess(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Run> {
  const run = startProcessGroup(process.execPath, ["--import", TSX, CLI, ...args], {
    cwd,
    env: { ...inherited(), TSX_TSCONFIG_PATH: TSCONFIG, ...env },
  });
  onTestFinished(() => run.stop());
  let stdout = "";
  let stderr = "";
  run.child.stdout.on("data", (chunk: string) => (stdout += chunk));
  run.child.stderr.on("data", (chunk: string) => (stderr += chunk));
  // "close", not "exit": both streams have been read to their end by then.
  const [code, signal] = (await once(run.child, "close")) as [number | null, string | null];
  return { status: signal ? 1 : code, stdout, stderr };
}
