import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { runCommand } from "../check-packages/run-command.js";
import { processHarness, SMOKE_PASSED, workerHarness } from "./harness.js";
import type { Runtime, RuntimeSmoke } from "./smoke.js";

/** How one package fared on one runtime. */
export interface SmokeOutcome {
  readonly result: "passed" | "failed" | "not-for";
  /** The failure, or why the package is not for the runtime. */
  readonly detail?: string;
}

/** Where a run happens: the project root (its node_modules) and a folder inside it to write to. */
export interface SmokeRun {
  readonly root: string;
  readonly workDir: string;
  /** The package folder name: `crypto`. */
  readonly name: string;
  readonly smoke: RuntimeSmoke;
  /** The smoke compiled to JavaScript, a file in `workDir`. */
  readonly smokeFile: string;
}

/** Every process gets this long; a smoke is one operation, so anything longer is a hang. */
const TIMEOUT_MS = 120_000;
/** A workerd release date the installed workerd supports, fixed so runs compare. */
const COMPATIBILITY_DATE = "2026-07-01";

/** Compiles a package's `test/runtime.smoke.ts` to `<name>.smoke.mjs` in `workDir`. */
export async function compileSmoke(source: string, workDir: string, name: string): Promise<string> {
  const file = `${name}.smoke.mjs`;
  // Its own helpers (relative imports) are bundled in; packages stay imports, and the smoke
  // takes them through `load` anyway, so each runtime resolves them its own way.
  await build({
    bundle: true,
    packages: "external",
    entryPoints: [source],
    outfile: join(workDir, file),
    format: "esm",
    logLevel: "silent",
  });
  return file;
}

/** Runs the compiled smoke on `runtime` and says how it went. */
export async function runSmoke(run: SmokeRun, runtime: Runtime): Promise<SmokeOutcome> {
  const specifiers = run.smoke.imports(runtime);
  if ("notFor" in specifiers) return { result: "not-for", detail: specifiers.notFor };
  try {
    return runtime === "workerd"
      ? await runOnWorkerd(run, specifiers)
      : await runInProcess(run, runtime);
  } catch (error) {
    return { result: "failed", detail: failureLine(errorText(error)) };
  }
}

/** What went wrong: an esbuild failure's first error (its message only counts them), else the message. */
function errorText(error: unknown): string {
  const buildErrors = (error as { errors?: { text?: unknown }[] } | null)?.errors;
  const firstBuildError = Array.isArray(buildErrors) ? buildErrors[0]?.text : undefined;
  if (typeof firstBuildError === "string") return firstBuildError;
  return String(error instanceof Error ? error.message : error);
}

async function runInProcess(
  run: SmokeRun,
  runtime: Exclude<Runtime, "workerd">,
): Promise<SmokeOutcome> {
  const harness = processHarness(run.smokeFile, runtime);
  const harnessFile = join(run.workDir, `${run.name}.${runtime}${harness.extension}`);
  writeFileSync(harnessFile, harness.source);
  const bin = join(run.root, "node_modules", ".bin");
  const [command, args] =
    runtime === "bun"
      ? [join(bin, "bun"), [harnessFile]]
      : runtime === "deno"
        ? [
            join(bin, "deno"),
            [
              "run",
              "--no-prompt",
              `--allow-read=${run.root}`,
              ...(run.smoke.denoPermissions ?? []).map((permission) => permission.flag),
              harnessFile,
            ],
          ]
        : // Node itself, not a `node` that an npm package may have put in node_modules/.bin.
          [process.execPath, [harnessFile]];
  const output = await runCommand(command, args, {
    cwd: run.workDir,
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    timeoutMs: TIMEOUT_MS,
  });
  if (output.code === 0 && output.stdout.trim().endsWith(SMOKE_PASSED)) return { result: "passed" };
  return {
    result: "failed",
    detail: failureLine(output.stderr || output.stdout || `exit code ${output.code}`),
  };
}

async function runOnWorkerd(run: SmokeRun, specifiers: readonly string[]): Promise<SmokeOutcome> {
  const entry = join(run.workDir, `${run.name}.worker-entry.mjs`);
  const script = join(run.workDir, `${run.name}.worker.mjs`);
  writeFileSync(entry, workerHarness(run.smokeFile, specifiers));
  // What wrangler does for a Worker without `nodejs_compat`: one ES module for the browser-like
  // platform, workerd's export conditions first, no Node built-in available.
  await build({
    entryPoints: [entry],
    outfile: script,
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    logLevel: "silent",
  });
  const miniflare = new Miniflare({
    modules: true,
    scriptPath: script,
    compatibilityDate: COMPATIBILITY_DATE,
    d1Databases: ["DB"],
    r2Buckets: ["FILES"],
    ratelimits: { LIMITER: { namespace_id: "1001", simple: { limit: 3, period: 60 } } },
  });
  try {
    const response = await miniflare.dispatchFetch("http://smoke.test/");
    const body = await response.text();
    if (response.status === 200 && body === SMOKE_PASSED) return { result: "passed" };
    return { result: "failed", detail: failureLine(body) };
  } finally {
    await miniflare.dispose();
  }
}

/** The line of a failure's output that says what went wrong: its error, else its first line. */
function failureLine(text: string): string {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const line = lines.find((candidate) => /\b(\w*Error|error):/.test(candidate)) ?? lines[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
