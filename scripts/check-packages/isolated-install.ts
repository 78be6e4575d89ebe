import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Finding } from "./findings.js";
import { runCommand } from "./run-command.js";
import { optionalPeers, type WorkspacePackage } from "./workspace-packages.js";

/** Where the installs run: the pnpm binary and the store every temporary project shares. */
export interface InstallSetup {
  readonly pnpm: string;
  readonly storeDir: string;
  /** Tarball of every Tessera package by name: they are not on npm, so installs use these. */
  readonly tarballs: ReadonlyMap<string, string>;
}

/**
 * pnpm settings for a user's strict project: an isolated node_modules and nothing hoisted, so a
 * package can only import what it declares. pnpm 11+ reads these (and `overrides`) only from
 * pnpm-workspace.yaml, not from .npmrc or package.json; JSON is valid YAML.
 */
function workspaceSettings(setup: InstallSetup): object {
  return {
    nodeLinker: "isolated",
    hoist: false,
    publicHoistPattern: [],
    storeDir: setup.storeDir,
    // Native builds (better-sqlite3, an optional peer) are not needed to import an entry.
    strictDepBuilds: false,
    overrides: Object.fromEntries(
      [...setup.tarballs].map(([name, tarball]) => [name, `file:${tarball}`]),
    ),
  };
}

/**
 * Installs `pkg` alone, from its tarball, into a fresh project at `projectDir`, checks that the
 * layout really is strict, and returns the findings. `afterBareInstall` runs before the
 * optional peers are added, so it sees what installing the package alone brings.
 */
export async function installAlone(
  pkg: WorkspacePackage,
  projectDir: string,
  setup: InstallSetup,
  afterBareInstall: () => void,
): Promise<Finding[]> {
  const packageName = pkg.manifest.name;
  mkdirSync(projectDir, { recursive: true });
  writeFileSync(
    join(projectDir, "package.json"),
    JSON.stringify({
      name: "tessera-install-probe",
      private: true,
      dependencies: { [packageName]: `file:${setup.tarballs.get(packageName)}` },
    }),
  );
  writeFileSync(join(projectDir, "pnpm-workspace.yaml"), JSON.stringify(workspaceSettings(setup)));
  const pnpmArgs = ["--reporter=append-only", "--config.confirmModulesPurge=false"];
  const installed = await runCommand(setup.pnpm, ["install", ...pnpmArgs], { cwd: projectDir });
  if (installed.code !== 0) {
    return [{ packageName, check: "install", detail: installed.stdout + installed.stderr }];
  }
  const findings = strictLayoutFindings(packageName, projectDir);
  afterBareInstall();
  // A Tessera optional peer (webhooks' @tessera/sql) comes from its tarball, as the overrides do.
  const peers = Object.entries(optionalPeers(pkg.manifest)).map(([name, range]) => {
    const tarball = setup.tarballs.get(name);
    return tarball ? `file:${tarball}` : `${name}@${range}`;
  });
  if (peers.length > 0) {
    const added = await runCommand(setup.pnpm, ["add", ...peers, ...pnpmArgs], { cwd: projectDir });
    if (added.code !== 0) {
      findings.push({ packageName, check: "install", detail: added.stdout + added.stderr });
    }
  }
  return findings;
}

/** pnpm ignores settings it does not read: make sure nothing was hoisted after all. */
function strictLayoutFindings(packageName: string, projectDir: string): Finding[] {
  const modules = JSON.parse(
    readFileSync(join(projectDir, "node_modules", ".modules.yaml"), "utf8"),
  );
  const problems = [
    modules.nodeLinker === "isolated" ? "" : `nodeLinker is ${modules.nodeLinker}`,
    Object.keys(modules.hoistedDependencies ?? {}).length === 0 ? "" : "dependencies were hoisted",
    (modules.publicHoistPattern ?? []).length === 0 ? "" : "publicHoistPattern is not empty",
    existsSync(join(projectDir, "node_modules", ".pnpm", "node_modules"))
      ? "node_modules/.pnpm/node_modules exists"
      : "",
  ].filter(Boolean);
  return problems.map((detail) => ({ packageName, check: "strict-layout", detail }));
}
