import type { DryRunPackage } from "./dry-run.js";

const yesNo = (value: boolean | undefined) => (value === undefined ? "-" : value ? "yes" : "no");

/**
 * A dry run's packages as a plain-text table (package, version, published, imported), each
 * column as wide as its longest cell, then one line for each package that failed, saying why.
 */
export function dryRunTable(packages: readonly DryRunPackage[]): string {
  const rows = [
    ["package", "version", "published", "imported"],
    ...packages.map((pkg) => [pkg.name, pkg.version, yesNo(pkg.published), yesNo(pkg.imported)]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd(),
  );
  const failures = packages
    .filter((pkg) => pkg.failure !== undefined)
    .map((pkg) => `${pkg.name}@${pkg.version}: ${pkg.failure}`);
  return [...lines, ...(failures.length > 0 ? ["", ...failures] : [])].join("\n");
}
