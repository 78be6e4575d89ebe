import { copyFileSync } from "node:fs";
import { join } from "node:path";
import type { Finding } from "./findings.js";
import { runCommand } from "./run-command.js";
import type { WorkspacePackage } from "./workspace-packages.js";

const PROBE_FILES = ["import-probe.mjs", "import-probe-hooks.mjs"];

/** What import-probe.mjs saw while one entry loaded. */
interface ProbeReport {
  readonly failure: string | null;
  readonly exports: readonly string[];
  readonly builtins: readonly { readonly specifier: string; readonly from: string }[];
  readonly environmentReads: readonly string[];
}

async function probe(projectDir: string, mode: "esm" | "cjs", specifier: string) {
  const result = await runCommand(process.execPath, ["import-probe.mjs", mode, specifier], {
    cwd: projectDir,
  });
  if (result.code !== 0) {
    return {
      failure: result.stderr || result.stdout,
      exports: [],
      builtins: [],
      environmentReads: [],
    };
  }
  return JSON.parse(result.stdout) as ProbeReport;
}

/** `/tmp/x/node_modules/.pnpm/postcss@8/node_modules/postcss/lib/input.js` → `postcss/lib/input.js`. */
function shortPath(path: string): string {
  const inStore = path.lastIndexOf("/node_modules/");
  return inStore === -1 ? path : path.slice(inStore + "/node_modules/".length);
}

/**
 * Imports every `exports` entry of the installed `pkg`, each in a fresh Node process, with ESM
 * `import()` and with CJS `require`. Every entry must load both ways with the same export names;
 * the main entry must also load no built-in module and read no environment variable, anywhere in
 * its dependency graph (Deno, Workers and browsers have neither).
 */
export async function probeEntries(pkg: WorkspacePackage, projectDir: string): Promise<Finding[]> {
  for (const file of PROBE_FILES)
    copyFileSync(join(import.meta.dirname, file), join(projectDir, file));
  const packageName = pkg.manifest.name;
  const findings: Finding[] = [];
  for (const { subpath, specifier } of pkg.entries) {
    const esm = await probe(projectDir, "esm", specifier);
    const cjs = await probe(projectDir, "cjs", specifier);
    if (esm.failure)
      findings.push({ packageName, check: "import-esm", detail: `${specifier}: ${esm.failure}` });
    if (cjs.failure)
      findings.push({ packageName, check: "import-cjs", detail: `${specifier}: ${cjs.failure}` });
    const esmNames = esm.exports.filter((name) => name !== "default" && name !== "module.exports");
    if (!esm.failure && !cjs.failure && esmNames.join() !== cjs.exports.join()) {
      findings.push({
        packageName,
        check: "esm-cjs-exports",
        detail: `${specifier}: import() gives ${esmNames.join(", ")}; require gives ${cjs.exports.join(", ")}`,
      });
    }
    if (subpath !== ".") continue;
    const builtins = new Set(
      [...esm.builtins, ...cjs.builtins].map(
        ({ specifier: builtin, from }) => `${builtin} (from ${shortPath(from)})`,
      ),
    );
    if (builtins.size > 0) {
      findings.push({
        packageName,
        check: "main-entry-node-import",
        detail: [...builtins].join("; "),
      });
    }
    const reads = new Set(
      [...esm.environmentReads, ...cjs.environmentReads].map((read) =>
        read.replace(/ by (.*)$/, (_, path: string) => ` by ${shortPath(path)}`),
      ),
    );
    if (reads.size > 0) {
      findings.push({
        packageName,
        check: "main-entry-environment-read",
        detail: [...reads].join("; "),
      });
    }
  }
  for (const bin of Object.keys(pkg.manifest.bin ?? {})) {
    const ran = await runCommand(join(projectDir, "node_modules", ".bin", bin), ["--help"], {
      cwd: projectDir,
    });
    if (ran.code !== 0)
      findings.push({ packageName, check: "bin", detail: `${bin} --help: ${ran.stderr}` });
  }
  return findings;
}
