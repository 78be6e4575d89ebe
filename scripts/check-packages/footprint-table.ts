import type { Footprint } from "./footprint.js";

/** The docs/benchmarks.md section: what installing each package alone brings. */
export function footprintTable(
  footprints: ReadonlyMap<string, Footprint>,
  context: { readonly date: string; readonly pnpmVersion: string },
): string {
  const rows = [...footprints].map(([name, { packages, bytes }]) => {
    const tessera = packages.filter((other) => other.startsWith("@tessera/") && other !== name);
    const others = packages.filter((other) => !other.startsWith("@tessera/"));
    const megabytes = (bytes / 1_000_000).toFixed(2);
    const list = (names: string[]) => (names.length === 0 ? "none" : names.join(", "));
    return `| ${name} | ${packages.length} | ${megabytes} | ${list(tessera.map((t) => t.slice(9)))} | ${list(others)} |`;
  });
  return [
    "## Install footprint",
    "",
    `Measured ${context.date} by \`npm run check:packages\`: each package's tarball installed alone`,
    `into an empty project by pnpm ${context.pnpmVersion} (isolated, nothing hoisted, optional peers`,
    "left out). Packages counts every folder in `node_modules/.pnpm`, the package itself included;",
    "MB is the size of their files (1 MB = 1,000,000 bytes).",
    "",
    "| package | packages | MB | Tessera packages it brings | other packages |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}
