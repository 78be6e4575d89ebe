import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { matrixTable } from "../matrix-table.js";
import { compileSmoke, runSmoke, type SmokeRun } from "../run-smoke.js";
import type { RuntimeSmoke } from "../smoke.js";

const root = join(import.meta.dirname, "..", "..", "..");
// Inside the project, as the real runs are: bare specifiers resolve through its node_modules.
const workDir = mkdtempSync(join(root, ".runtime-matrix-test-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** A smoke written to a file and compiled, as a package's would be. */
async function smokeRun(name: string, source: string, smoke: RuntimeSmoke): Promise<SmokeRun> {
  const file = join(workDir, `${name}.ts`);
  writeFileSync(file, source);
  return { root, workDir, name, smoke, smokeFile: await compileSmoke(file, workDir, name) };
}

const failing = `export default {
  imports: () => [],
  async run({ check, runtime }) { check(runtime === "nowhere", "runs nowhere"); },
};`;

const nodeOnly = `export default {
  imports: () => ["node:fs"],
  async run({ load, check }) { const fs = await load("node:fs"); check(typeof fs.readFileSync === "function", "has fs"); },
};`;

describe("runSmoke", () => {
  it("reports a failed check with its words, on a process runtime and on workerd", async () => {
    const smoke: RuntimeSmoke = { does: "fail", imports: () => [], run: async () => {} };
    const run = await smokeRun("failing", failing, smoke);
    for (const runtime of ["node-esm", "node-cjs", "workerd"] as const) {
      const outcome = await runSmoke(run, runtime);
      expect(outcome.result).toBe("failed");
      expect(outcome.detail).toMatch(/check failed: runs nowhere/);
    }
  });

  it("passes a smoke that holds, and fails one that needs Node's built-ins on workerd", async () => {
    const smoke: RuntimeSmoke = { does: "read", imports: () => ["node:fs"], run: async () => {} };
    const run = await smokeRun("node-only", nodeOnly, smoke);
    expect(await runSmoke(run, "node-esm")).toEqual({ result: "passed" });
    const onWorkerd = await runSmoke(run, "workerd");
    expect(onWorkerd.result).toBe("failed");
    expect(onWorkerd.detail).toMatch(/node:fs/);
  });

  it("does not run a smoke where the package says it is not for", async () => {
    const smoke: RuntimeSmoke = {
      does: "nothing",
      imports: (runtime) => (runtime === "bun" ? { notFor: "no reason" } : []),
      run: async () => {},
    };
    const run = await smokeRun("not-for", failing, smoke);
    expect(await runSmoke(run, "bun")).toEqual({ result: "not-for", detail: "no reason" });
  });
});

describe("matrixTable", () => {
  it("marks each cell and numbers each distinct note once", () => {
    const smoke: RuntimeSmoke = {
      does: "a thing",
      imports: () => [],
      denoPermissions: [{ flag: "--allow-env=NODE_ENV", why: "a dependency reads it" }],
      run: async () => {},
    };
    const table = matrixTable([
      {
        packageName: "@tessera/a",
        smoke,
        outcomes: {
          "node-esm": { result: "passed" },
          "node-cjs": { result: "failed", detail: "boom" },
          bun: { result: "passed" },
          deno: { result: "passed" },
          workerd: { result: "not-for", detail: "Node only" },
        },
      },
      {
        packageName: "@tessera/b",
        smoke: { ...smoke, denoPermissions: [] },
        outcomes: {
          "node-esm": { result: "passed" },
          "node-cjs": { result: "passed" },
          bun: { result: "passed" },
          deno: { result: "passed" },
          workerd: { result: "not-for", detail: "Node only" },
        },
      },
    ]);
    expect(table.split("\n")).toEqual([
      "| package | smoke | Node (import) | Node (require) | Bun | Deno | workerd |",
      "|---|---|---|---|---|---|---|",
      "| @tessera/a | a thing | ✓ | ✗ [1] | ✓ | ✓ [2] | – [3] |",
      "| @tessera/b | a thing | ✓ | ✓ | ✓ | ✓ | – [3] |",
      "",
      "1. failed: boom",
      "2. `--allow-env=NODE_ENV`: a dependency reads it",
      "3. Node only",
    ]);
  });
});
