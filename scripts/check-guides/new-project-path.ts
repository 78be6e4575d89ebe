// The CLI's path, as a newcomer follows it from the CLI's README: `npx @tessera/cli new my-app`,
// then the next steps it prints, then `npm test` and `npm start`, outside the repository and
// against the local registry.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { runCommand } from "../check-packages/run-command.js";
import { walkAccounts } from "./account-walk.js";

/** Long enough for an install that fetches through the registry's proxy. */
const STEP_TIMEOUT_MS = 600_000;

/**
 * The steps `tessera new` printed after `next:`, one per line (`cd my-app`, `npm install`, …).
 */
export function nextSteps(printed: string): string[] {
  const lines = printed.split("\n");
  const start = lines.indexOf("next:");
  if (start === -1) return [];
  return lines
    .slice(start + 1)
    .filter((line) => line.startsWith("  "))
    .map((line) => line.trim());
}

/**
 * Creates a project with `npx @tessera/cli new my-app --framework <framework>` from the registry
 * at `registry`, runs the next steps it prints (`npm install` from that registry), `npm test`,
 * then `npm start` on a free port (`PORT=0`), and walks sign-up, login and `/me` over HTTP. The
 * reason it failed, or undefined.
 */
export async function followNewProject(
  registry: string,
  framework: "hono" | "express" | "fastify",
): Promise<string | undefined> {
  const home = mkdtempSync(join(tmpdir(), "tessera-new-"));
  const project = join(home, "my-app");
  try {
    // npx keeps the packages it ran by name, not by content: a cache of its own, so the CLI is
    // the one just published, not an earlier run's copy at the same version.
    const created = await runCommand(
      "npx",
      [
        "--yes",
        "--registry",
        registry,
        "--cache",
        join(home, "npx-cache"),
        "@tessera/cli",
        "new",
        "my-app",
        ...(framework === "hono" ? [] : ["--framework", framework]),
      ],
      { cwd: home, timeoutMs: STEP_TIMEOUT_MS },
    );
    if (created.code !== 0) return `npx @tessera/cli new failed:\n${created.stderr}`;
    const steps = nextSteps(created.stdout);
    if (steps.at(-1) !== "npm start") return `unexpected next steps:\n${created.stdout}`;
    for (const step of steps.slice(0, -1)) {
      if (step === "cd my-app") continue;
      const [command = "", ...args] = step.split(" ");
      const fromRegistry =
        command === "npm" && args[0] === "install"
          ? [...args, "--registry", registry, "--no-audit", "--no-fund"]
          : args;
      const ran = await runCommand(command, fromRegistry, {
        cwd: project,
        timeoutMs: STEP_TIMEOUT_MS,
      });
      if (ran.code !== 0) return `${step} failed:\n${ran.stdout}\n${ran.stderr}`;
    }
    const tested = await runCommand("npm", ["test"], { cwd: project, timeoutMs: STEP_TIMEOUT_MS });
    if (tested.code !== 0) return `npm test failed:\n${tested.stdout}\n${tested.stderr}`;
    return await whileStarted(project, walkAccounts);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Runs `npm start` with `PORT=0` until the app prints where it listens, hands that address to
 * `use`, then stops npm and the app under it (their process group).
 */
async function whileStarted(
  project: string,
  use: (origin: string) => Promise<string | undefined>,
): Promise<string | undefined> {
  const app = spawn("npm", ["start"], {
    cwd: project,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1" },
    detached: true,
  });
  const exited = new Promise((resolve) => app.once("exit", resolve));
  let output = "";
  const origin = new Promise<string | undefined>((resolve) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (listening) resolve(listening[1]);
    };
    app.stdout?.on("data", read);
    app.stderr?.on("data", read);
    void exited.then(() => resolve(undefined));
  });
  try {
    const started = await Promise.race([origin, delay(60_000, undefined, { ref: false })]);
    if (!started) return `npm start did not say where it listens:\n${output}`;
    return await use(started);
  } finally {
    try {
      if (app.pid !== undefined) process.kill(-app.pid, "SIGTERM");
    } catch {
      // The group has ended already.
    }
    await exited;
  }
}
