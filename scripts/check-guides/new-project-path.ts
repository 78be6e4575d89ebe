// The CLI's path, as a newcomer follows it from the CLI's README: `npx @tessera/cli new my-app`,
// then the steps the project's README lists (the same as the next steps the command printed),
// then `npm test` and `npm start`, outside the repository and against the local registry; and
// the same project installed by strict pnpm, where its code must type-check.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { runCommand } from "../check-packages/run-command.js";
import { walkAccounts } from "./account-walk.js";

/** Long enough for an install that fetches through the registry's proxy. */
const STEP_TIMEOUT_MS = 600_000;

/** The frameworks `tessera new` writes a project for. */
export type NewProjectFramework = "hono" | "express" | "fastify";

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

/** The commands of the `## Start` section's ```sh block of a project's README, in order. */
export function readmeSteps(readme: string): string[] {
  const block = /^## Start\n[\s\S]*?```sh\n([\s\S]*?)```/m.exec(readme)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter((line) => line !== "");
}

/**
 * `npx @tessera/cli new my-app` in a new folder, from the registry at `registry`, and the
 * steps the project's README lists, checked against those the command printed; or why not.
 */
async function newProjectFromRegistry(
  registry: string,
  framework: NewProjectFramework,
): Promise<{ home: string; project: string; steps: string[] } | string> {
  const home = mkdtempSync(join(tmpdir(), "tessera-new-"));
  const project = join(home, "my-app");
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
  if (created.code !== 0) {
    rmSync(home, { recursive: true, force: true });
    return `npx @tessera/cli new failed:\n${created.stderr}`;
  }
  const steps = readmeSteps(readFileSync(join(project, "README.md"), "utf8"));
  const printed = nextSteps(created.stdout);
  if (steps.at(-1) !== "npm start" || printed.slice(1).join("\n") !== steps.join("\n")) {
    rmSync(home, { recursive: true, force: true });
    return `the README's steps (${steps.join("; ")}) are not the next steps printed:\n${created.stdout}`;
  }
  return { home, project, steps };
}

/**
 * Creates a project with `npx @tessera/cli new my-app --framework <framework>` from the registry
 * at `registry`, runs the steps its README lists but the last (`npm install` from that registry,
 * and `npx tessera generate accounts` when the CLI ran without `@tessera/accounts`, as npx runs
 * it), `npm test`, then the last, `npm start`, on a free port (`PORT=0`), and walks sign-up,
 * login and `/me` over HTTP. The reason it failed, or undefined.
 */
export async function followNewProject(
  registry: string,
  framework: NewProjectFramework,
): Promise<string | undefined> {
  const created = await newProjectFromRegistry(registry, framework);
  if (typeof created === "string") return created;
  const { home, project, steps } = created;
  try {
    for (const step of steps.slice(0, -1)) {
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
 * The same project installed by strict pnpm (isolated, nothing hoisted: its code can import
 * only what its package.json lists), its README's steps run the pnpm way (`pnpm install`,
 * `pnpm exec tessera …`), then `pnpm run typecheck`. The reason it failed, or undefined.
 */
export async function typeCheckNewProjectWithPnpm(
  registry: string,
  framework: NewProjectFramework,
  pnpm: string,
  storeDir: string,
): Promise<string | undefined> {
  const created = await newProjectFromRegistry(registry, framework);
  if (typeof created === "string") return created;
  const { home, project, steps } = created;
  try {
    // pnpm reads these only from pnpm-workspace.yaml, and writes to it while installing: block
    // style, which it can edit in place (it refuses to edit a JSON document). Builds
    // (better-sqlite3's binding) are not run: type-checking does not load them.
    const strict = [
      "nodeLinker: isolated",
      "hoist: false",
      "publicHoistPattern: []",
      `storeDir: ${JSON.stringify(storeDir)}`,
      "strictDepBuilds: false",
    ];
    writeFileSync(join(project, "pnpm-workspace.yaml"), `${strict.join("\n")}\n`);
    for (const step of steps.slice(0, -1)) {
      const [command = "", ...args] = step.split(" ");
      const pnpmArgs =
        command === "npm" && args[0] === "install"
          ? ["install", "--registry", registry]
          : command === "npx"
            ? ["exec", ...args]
            : undefined;
      if (!pnpmArgs) return `no pnpm form of the README's step \`${step}\``;
      const ran = await runCommand(pnpm, pnpmArgs, { cwd: project, timeoutMs: STEP_TIMEOUT_MS });
      if (ran.code !== 0) return `${step}, with pnpm, failed:\n${ran.stdout}\n${ran.stderr}`;
    }
    const typeChecked = await runCommand(pnpm, ["run", "typecheck"], {
      cwd: project,
      timeoutMs: STEP_TIMEOUT_MS,
    });
    if (typeChecked.code !== 0) return `pnpm run typecheck failed:\n${typeChecked.stdout}`;
    return undefined;
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
