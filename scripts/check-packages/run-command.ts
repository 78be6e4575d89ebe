import { execFile } from "node:child_process";

/** What a finished command printed, and its exit code (0 when it succeeded). */
export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command without a shell and resolves with its output, whatever its exit code. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: {
    readonly cwd: string;
    readonly env?: NodeJS.ProcessEnv;
    /** Kill the command after this many milliseconds (default: no limit). */
    readonly timeoutMs?: number;
  },
): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      [...args],
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.timeoutMs ?? 0,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr: stderr || (error && !stdout ? String(error) : stderr) });
      },
    );
  });
}
