// A process a test starts, and whatever that process starts, must not outlive the test: not when
// the test fails, not when it times out, not when the test process itself is killed.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { waitForLine } from "../examples/app/test/support/app-process.js";
import { startProcessGroup } from "./support/process-group.js";

const fixtures = fileURLToPath(new URL("./fixtures/process-group/", import.meta.url));
const repository = fileURLToPath(new URL("..", import.meta.url));
const resolve = createRequire(import.meta.url).resolve;
const vitestCli = join(repository, "node_modules/vitest/vitest.mjs");
// Loaded into node itself: tsx's CLI would run the fixture in a child of its own.
const tsxLoader = pathToFileURL(resolve("tsx/esm")).href;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Whether `pid` runs: it exists and is not a zombie (this machine's first process may never
 * reap an orphan, so a killed one can stay a zombie, running nothing).
 */
function runs(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !["Z", "X"].includes(stat.slice(stat.lastIndexOf(")") + 2)[0]!);
  } catch {
    return false;
  }
}

/** The pids of "<shell> <sleep>" lines. */
function pidsOf(lines: string): number[] {
  return lines.trim().split(/\s+/).map(Number);
}

describe("a process group started by a test", () => {
  it("ends with every process in it when the test fails or times out", async () => {
    const folder = mkdtempSync(join(tmpdir(), "tessera-process-group-"));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const pidsFile = join(folder, "pids");
    const run = startProcessGroup(
      process.execPath,
      [vitestCli, "run", "--config", join(fixtures, "vitest.config.ts")],
      { cwd: fixtures, env: { PATH: process.env.PATH ?? "", PIDS_FILE: pidsFile, NO_COLOR: "1" } },
    );
    cleanups.push(() => run.stop());

    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/Test timed out in 5000ms/);
    expect(run.output()).toMatch(/Tests {2}2 failed \(2\)/);
    const pids = pidsOf(readFileSync(pidsFile, "utf8"));
    // Two shells, each with its sleep: the grandchildren of the test process.
    expect(pids).toHaveLength(4);
    expect(pids.filter(runs)).toEqual([]);
  }, 60_000);

  it("is killed by its watchdog when the test process dies without running a hook", async () => {
    const testProcess = startProcessGroup(
      process.execPath,
      ["--import", tsxLoader, join(fixtures, "orphaned-group.ts")],
      { cwd: repository, env: { PATH: process.env.PATH ?? "" } },
    );
    cleanups.push(() => testProcess.stop());
    const [line] = await waitForLine(testProcess.output, /^\d+ \d+\n/, 30_000);
    const pids = pidsOf(line);
    expect(pids.filter(runs)).toEqual(pids);

    // SIGKILL to the test process alone: its own group, the shell's, is not told.
    testProcess.child.kill("SIGKILL");
    expect(await testProcess.exited).toBeNull();
    await expect.poll(() => pids.filter(runs), { timeout: 10_000, interval: 100 }).toEqual([]);
  }, 60_000);
});
