// `npm run check:packages`: builds and packs every package, then installs each one ALONE from its
// tarball into a fresh strict pnpm project (its Tessera siblings from their tarballs too, since
// they are not on npm) and checks what a user of that package would meet. See the README's
// "Working on Tessera" for the list of checks. Options: --skip-build, --keep (the temporary
// folders), and package folder names to check only those (then docs/benchmarks.md is left alone).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { replaceMarkedSection } from "../marked-section.js";
import { declaredImportFindings } from "./declared-imports.js";
import { probeEntries } from "./entry-probe.js";
import type { Finding } from "./findings.js";
import { type Footprint, measureFootprint } from "./footprint.js";
import { footprintTable } from "./footprint-table.js";
import { installContentFindings } from "./install-rules.js";
import { installAlone } from "./isolated-install.js";
import { KNOWN_EXCEPTIONS } from "./known-exceptions.js";
import { packAll } from "./pack.js";
import { importCycleFindings, runtimeImportCycles, workspaceImports } from "./package-cycles.js";
import { licenseFindings, lintTarball } from "./package-linters.js";
import { siblingCopies } from "./sibling-copies.js";
import { workspacePackages } from "./workspace-packages.js";

/** Packages checked at once: each install and attw run is heavy for a 2-core machine. */
const PARALLEL_PACKAGES = 2;

const root = join(import.meta.dirname, "..", "..");
const binDir = join(root, "node_modules", ".bin");
const options = process.argv.slice(2);
const only = options.filter((option) => !option.startsWith("--"));
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const log = (message: string) => console.log(`[${elapsed()}] ${message}`);

if (!options.includes("--skip-build")) {
  log("npm run build");
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
}

const allPackages = workspacePackages(root);
const packages =
  only.length === 0
    ? allPackages
    : allPackages.filter((pkg) => only.includes(basename(pkg.folder)));
const workDir = mkdtempSync(join(tmpdir(), "tessera-check-packages-"));
// One store for every run on this machine: later runs download nothing they already have.
const storeDir = join(tmpdir(), "tessera-check-packages-store");

log(`npm pack ${allPackages.length} packages into ${workDir}`);
const packed = packAll(root, allPackages, join(workDir, "tarballs"));
const tarballs = new Map([...packed].map(([name, { tarball }]) => [name, tarball]));
const rootLicense = readFileSync(join(root, "LICENSE"), "utf8");
const pnpm = join(binDir, "pnpm");
const pnpmVersion = execFileSync(pnpm, ["--version"], { encoding: "utf8" }).trim();

const findings: Finding[] = [
  ...siblingCopies(new Map([...packed].map(([name, { unpacked }]) => [name, unpacked]))),
  // From the sources of every package at once: a cycle is between packages.
  ...importCycleFindings(runtimeImportCycles(workspaceImports(allPackages))),
];
const footprints = new Map<string, Footprint>();

async function checkPackage(pkg: (typeof packages)[number]): Promise<void> {
  const name = pkg.manifest.name;
  const { tarball, unpacked } = packed.get(name)!;
  const projectDir = join(workDir, "projects", basename(pkg.folder));
  mkdirSync(projectDir, { recursive: true });
  findings.push(...declaredImportFindings(pkg.manifest, unpacked));
  findings.push(...licenseFindings(name, unpacked, rootLicense));
  const installFindings = await installAlone(pkg, projectDir, { pnpm, storeDir, tarballs }, () => {
    const footprint = measureFootprint(projectDir);
    footprints.set(name, footprint);
    findings.push(...installContentFindings(name, footprint));
  });
  findings.push(...installFindings);
  if (!installFindings.some((finding) => finding.check === "install")) {
    findings.push(...(await probeEntries(pkg, projectDir)));
  }
  findings.push(...(await lintTarball(name, tarball, binDir)));
  log(`checked ${name}`);
}

const queue = [...packages];
await Promise.all(
  Array.from({ length: PARALLEL_PACKAGES }, async () => {
    for (let pkg = queue.shift(); pkg; pkg = queue.shift()) await checkPackage(pkg);
  }),
);

const checkedNames = new Set(packages.map((pkg) => pkg.manifest.name));
const relevant = findings.filter((finding) => checkedNames.has(finding.packageName));
const isKnown = (finding: Finding) =>
  KNOWN_EXCEPTIONS.some(
    (exception) =>
      exception.packageName === finding.packageName && exception.check === finding.check,
  );
const unexpected = relevant.filter((finding) => !isKnown(finding));
const stale = KNOWN_EXCEPTIONS.filter(
  (exception) =>
    checkedNames.has(exception.packageName) &&
    !relevant.some(
      (finding) =>
        finding.packageName === exception.packageName && finding.check === exception.check,
    ),
);

if (only.length === 0) {
  const document = readFileSync(join(root, "docs", "benchmarks.md"), "utf8");
  const sorted = new Map([...footprints].sort(([a], [b]) => a.localeCompare(b)));
  const table = footprintTable(sorted, {
    date: new Date().toISOString().slice(0, 10),
    pnpmVersion,
  });
  writeFileSync(
    join(root, "docs", "benchmarks.md"),
    replaceMarkedSection(document, "install-footprint", table),
  );
  log("wrote the install footprint to docs/benchmarks.md");
}

for (const finding of relevant.filter(isKnown)) {
  console.log(`known   ${finding.packageName} ${finding.check}: ${finding.detail.split("\n")[0]}`);
}
for (const finding of unexpected) {
  console.log(`FAILED  ${finding.packageName} ${finding.check}:\n${indent(finding.detail)}`);
}
for (const exception of stale) {
  console.log(
    `STALE   ${exception.packageName} ${exception.check}: passes now; remove it from KNOWN_EXCEPTIONS`,
  );
}
if (options.includes("--keep")) log(`kept ${workDir}`);
else rmSync(workDir, { recursive: true, force: true });
const failed = unexpected.length + stale.length > 0;
log(
  `${failed ? "FAILED" : "passed"}: ${packages.length} packages, ${unexpected.length} unexpected findings, ${stale.length} stale exceptions`,
);
process.exitCode = failed ? 1 : 0;

function indent(text: string): string {
  return text
    .trim()
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}
