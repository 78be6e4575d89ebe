import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCommand } from "../check-packages/run-command.js";
import { optionalPeers, type WorkspacePackage } from "../check-packages/workspace-packages.js";

/** Long enough for an install that reads the public packages through the registry's proxy. */
const INSTALL_TIMEOUT_MS = 600_000;
const IMPORT_TIMEOUT_MS = 120_000;

/**
 * Imports each specifier given after the program, each caught on its own, and prints a JSON
 * object of specifier → null (loaded) or the error's first line. It exits as soon as it has
 * printed: an entry may leave a timer or a handle open.
 */
const IMPORT_EACH = `
const failures = {};
for (const specifier of process.argv.slice(1)) {
  try {
    await import(specifier);
    failures[specifier] = null;
  } catch (error) {
    failures[specifier] = String(error?.stack ?? error).split("\\n")[0];
  }
}
process.stdout.write(JSON.stringify(failures), () => process.exit(0));
`;

/**
 * Installs each of `packages` at its version from the registry at `registry` into a fresh npm
 * project under `temp` (npm's configuration a file naming only that registry), with the optional
 * peers their subpaths need (at the ranges they declare), then imports every `exports` entry of
 * each with Node. Install scripts are not run: native builds (better-sqlite3's) are not needed
 * to load an entry. Resolves with each package's failure by name; no key for one that loaded.
 */
export async function installAndImport(
  registry: string,
  packages: readonly WorkspacePackage[],
  temp: string,
  log: (line: string) => void = () => {},
): Promise<Map<string, string>> {
  const project = mkdtempSync(join(temp, "tessera-release-install-"));
  const failures = new Map<string, string>();
  try {
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "release-dry-run", private: true, type: "module" }, null, 2),
    );
    const npmrc = join(project, ".npmrc-registry");
    writeFileSync(npmrc, `registry=${registry}\n`);
    const peers = new Map<string, string>();
    for (const pkg of packages) {
      for (const [name, range] of Object.entries(optionalPeers(pkg.manifest))) {
        // A Tessera peer comes at its released version, or not at all when it did not publish.
        if (!name.startsWith("@tessera/") && !peers.has(name)) {
          peers.set(name, range);
        }
      }
    }
    const specs = [
      ...packages.map((pkg) => `${pkg.manifest.name}@${pkg.manifest.version}`),
      ...[...peers].map(([name, range]) => `${name}@${range}`),
    ];
    const installed = await runCommand(
      "npm",
      [
        "install",
        ...specs,
        "--ignore-scripts",
        // Package documents are asked of this registry, never taken from npm's cache.
        "--prefer-online",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
      ],
      {
        cwd: project,
        env: { ...process.env, npm_config_userconfig: npmrc, npm_config_registry: registry },
        timeoutMs: INSTALL_TIMEOUT_MS,
      },
    );
    if (installed.code !== 0) {
      const why = `npm install failed: ${installed.stderr.trim() || installed.stdout.trim()}`;
      for (const pkg of packages) failures.set(pkg.manifest.name, why);
      return failures;
    }
    const specifiers = packages.flatMap((pkg) => pkg.entries.map((entry) => entry.specifier));
    log(`Installed; importing ${specifiers.length} entries with Node.`);
    const imported = await runCommand(
      process.execPath,
      ["--input-type=module", "--eval", IMPORT_EACH, ...specifiers],
      { cwd: project, timeoutMs: IMPORT_TIMEOUT_MS },
    );
    let results: Record<string, string | null> = {};
    try {
      results = JSON.parse(imported.stdout) as Record<string, string | null>;
    } catch {
      const why = `node did not report the imports (exit ${imported.code}): ${imported.stderr.trim()}`;
      for (const pkg of packages) failures.set(pkg.manifest.name, why);
      return failures;
    }
    for (const pkg of packages) {
      const failed = pkg.entries
        .filter((entry) => results[entry.specifier] !== null)
        .map((entry) => `${entry.specifier}: ${results[entry.specifier] ?? "not imported"}`);
      if (failed.length > 0) failures.set(pkg.manifest.name, failed.join("; "));
    }
    return failures;
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
