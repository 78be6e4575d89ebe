// `npm run check:guides`: every framework guide, followed as written by a newcomer, outside the
// repository. The built packages are published to a local registry (`npm run registry`'s); for
// each guide a fresh project runs the guide's `npm install` lines against it, takes the guide's
// program as `app.ts`, type-checks it, starts it with tsx, and signs up, gets a token and reads
// the user over HTTP, then logs in with the form and reads the user in the guide's own `/me`.
// Each guide with npm and again with pnpm (strict, isolated). With npm, each guide's "On Bun"
// program then runs with Bun (this repository's, from npm) in the same project, through the
// same walk.
// Beside them, the CLI's path for each framework: `npx @tessera/cli new my-app` from the
// registry, the steps its README lists, `npm test`, `npm start`, and the same walk; and the same
// project installed by strict pnpm and type-checked (new-project-path.ts). The guides without a
// server of their own (Next.js, typed fields) are installed as written, and each package their
// code imports must load. Run it after `npm run build`; `GUIDES=hono,express,new` picks guides
// (`new` the CLI's path).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand } from "../check-packages/run-command.js";
import { workspacePackages } from "../check-packages/workspace-packages.js";
import { publishPackages, startLocalRegistry } from "../registry/local-registry.js";
import { walkAccounts } from "./account-walk.js";
import { readGuideImports } from "./guide-imports.js";
import { readGuide } from "./guide-program.js";
import { followNewProject, typeCheckNewProjectWithPnpm } from "./new-project-path.js";

const root = join(import.meta.dirname, "..", "..");
const started = performance.now();
const log = (message: string) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${message}`);

/** The guides and the package managers each is followed with. */
const GUIDES = [
  { guide: "hono.md", clients: ["npm", "pnpm"] },
  { guide: "express.md", clients: ["npm", "pnpm"] },
  { guide: "fastify.md", clients: ["npm", "pnpm"] },
] as const;
/** The guides whose code is a part of an app, not a program: installed, and their imports loaded. */
const LIBRARY_GUIDES = ["nextjs-webhooks.md", "typed-fields-form.md", "front-end.md"] as const;
const FRAMEWORKS = ["hono", "express", "fastify"] as const;
const picked = process.env.GUIDES?.split(",");
const PNPM = join(root, "node_modules", ".bin", "pnpm");

const PNPM_STORE = join(tmpdir(), "tessera-check-packages-store");
/** What the guides tell pnpm users to add to each install line. */
const PNPM_ALLOWED = ["--allow-build=better-sqlite3", "--allow-build=esbuild"];

// The guides' programs listen on 3000, as written.
const GUIDE_URL = "http://127.0.0.1:3000";
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    skipLibCheck: true,
    noEmit: true,
  },
};

/** Bun, from this repository's install (the `bun` package of npm). */
const BUN = join(root, "node_modules", ".bin", "bun");

/** Guides installed at once: installs mostly wait on the network, the programs take turns. */
const PARALLEL_INSTALLS = 2;

let portFree: Promise<unknown> = Promise.resolve();
/** Runs `work` once every earlier program is done with port 3000, where the guides listen. */
function onThePort<T>(work: () => Promise<T>): Promise<T> {
  const turn = portFree.then(work);
  portFree = turn.catch(() => {});
  return turn;
}

const registry = await startLocalRegistry(0);
const failures: string[] = [];
try {
  await publishPackages(registry.url, workspacePackages(root));
  log(`published the packages to ${registry.url}`);
  const queue = [
    // First, as the longest: its own port, so it runs beside the guides.
    ...(!picked || picked.includes("new")
      ? FRAMEWORKS.flatMap((framework) => [
          {
            name: `tessera new --framework ${framework}`,
            run: () => followNewProject(registry.url, framework),
          },
          {
            name: `tessera new --framework ${framework} with pnpm`,
            run: () => typeCheckNewProjectWithPnpm(registry.url, framework, PNPM, PNPM_STORE),
          },
        ])
      : []),
    ...LIBRARY_GUIDES.filter((guide) => !picked || picked.includes(guide.replace(/\.md$/, ""))).map(
      (guide) => ({ name: `${guide} with npm`, run: () => followLibraryGuide(guide) }),
    ),
    ...GUIDES.filter(({ guide }) => !picked || picked.includes(guide.replace(/\.md$/, ""))).flatMap(
      ({ guide, clients }) =>
        clients.map((client) => ({
          name: `${guide} with ${client}`,
          run: () => followGuide(guide, client),
        })),
    ),
  ];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const jobStarted = performance.now();
      const failure = await job.run();
      const seconds = ((performance.now() - jobStarted) / 1000).toFixed(1);
      log(`${job.name}: ${failure ?? "ok"} (${seconds} s)`);
      if (failure) failures.push(`${job.name}: ${failure}`);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_INSTALLS }, worker));
} finally {
  await registry.close();
}
if (failures.length > 0) {
  console.error(`\n${failures.length} guide(s) did not work as written:\n${failures.join("\n")}`);
  process.exit(1);
}

/** Follows one guide in a fresh project; the reason it failed, or undefined. */
async function followGuide(guide: string, client: "npm" | "pnpm"): Promise<string | undefined> {
  const steps = readGuide(join(root, "docs", "guides", guide));
  const project = mkdtempSync(join(tmpdir(), `tessera-guide-${client}-`));
  try {
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "my-app", private: true, type: "module" }, null, 2),
    );
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(join(project, "app.ts"), steps.program);
    for (const install of steps.installs) {
      // `npm install -D a b` as the guides say it for pnpm: `pnpm add -D a b`, allowing the
      // two install scripts the guides name.
      const args = client === "npm" ? install : ["add", ...install.slice(1), ...PNPM_ALLOWED];
      const installed = await runCommand(
        client === "npm" ? "npm" : join(root, "node_modules", ".bin", "pnpm"),
        [
          ...args,
          "--registry",
          registry.url,
          // pnpm shares the packaging check's store, so what it fetched is not fetched again.
          ...(client === "npm" ? ["--no-audit", "--no-fund"] : ["--store-dir", PNPM_STORE]),
        ],
        { cwd: project, timeoutMs: 600_000 },
      );
      if (installed.code !== 0) return `${client} ${args.join(" ")} failed:\n${installed.stderr}`;
    }
    const typeChecked = await runCommand(
      join(project, "node_modules", ".bin", "tsc"),
      ["-p", "."],
      {
        cwd: project,
      },
    );
    if (typeChecked.code !== 0) return `tsc found errors:\n${typeChecked.stdout}`;
    const onNode = await onThePort(() =>
      signUpAndSignIn(project, process.execPath, [tsxCli(project), "app.ts"]),
    );
    if (onNode || client !== "npm" || !steps.bunProgram) return onNode;
    // The guide's Bun program, in the same project (it imports nothing better-sqlite3 brings),
    // on a database of its own.
    writeFileSync(join(project, "bun-app.ts"), steps.bunProgram);
    rmSync(join(project, "data"), { recursive: true, force: true });
    const onBun = await onThePort(() => signUpAndSignIn(project, BUN, ["bun-app.ts"]));
    return onBun && `on Bun: ${onBun}`;
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/**
 * Runs a guide's `npm install` lines against the registry in a fresh project, then loads each
 * package its code imports there; the reason it failed, or undefined.
 */
async function followLibraryGuide(guide: string): Promise<string | undefined> {
  const path = join(root, "docs", "guides", guide);
  const { installs } = readGuide(path);
  const project = mkdtempSync(join(tmpdir(), "tessera-guide-library-"));
  try {
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "my-app", private: true, type: "module" }, null, 2),
    );
    for (const install of installs) {
      const installed = await runCommand(
        "npm",
        [...install, "--registry", registry.url, "--no-audit", "--no-fund"],
        { cwd: project, timeoutMs: 600_000 },
      );
      if (installed.code !== 0) return `npm ${install.join(" ")} failed:\n${installed.stderr}`;
    }
    for (const specifier of readGuideImports(path)) {
      const loaded = await runCommand(
        process.execPath,
        ["--input-type=module", "--eval", `await import(${JSON.stringify(specifier)})`],
        { cwd: project },
      );
      if (loaded.code !== 0) return `${specifier} does not load:\n${loaded.stderr}`;
    }
    return undefined;
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/** tsx's own CLI file, as `npx tsx` ends up running it (pnpm's .bin entries are shell shims). */
function tsxCli(project: string): string {
  return join(project, "node_modules", "tsx", "dist", "cli.mjs");
}

/**
 * Starts the program (`command` with `args`: node with tsx, or Bun) and walks sign-up, token and
 * the signed-in user over HTTP.
 */
async function signUpAndSignIn(
  project: string,
  command: string,
  args: readonly string[],
): Promise<string | undefined> {
  const app = spawn(command, args, {
    cwd: project,
    env: { PATH: process.env.PATH ?? "", SECRET_KEY_BASE: "guide-check-".repeat(8) },
  });
  // Listened for from the start: the program may end on its own before the check stops it.
  const exited = new Promise((resolve) => app.once("exit", resolve));
  let output = "";
  app.stdout?.on("data", (chunk) => (output += chunk));
  app.stderr?.on("data", (chunk) => (output += chunk));
  try {
    if (!(await answers(app))) {
      return `the program did not start (exit ${app.exitCode ?? app.signalCode}):\n${output}`;
    }
    return await walkAccounts(GUIDE_URL);
  } finally {
    app.kill("SIGTERM");
    await exited;
  }
}

/** Waits up to 30 s for the program to answer; false when it exits or never does. */
async function answers(app: ChildProcess): Promise<boolean> {
  for (let attempt = 0; attempt < 60 && app.exitCode === null; attempt++) {
    const health = await fetch(`${GUIDE_URL}/login`).catch(() => undefined);
    if (health) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}
