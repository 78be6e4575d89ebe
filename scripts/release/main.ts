// `npm run release -- --registry <url>`: versions the packages from the pending changesets
// (each package's CHANGELOG.md written), builds them, and publishes every new version to the
// registry given, tagging each `<name>@<version>`. `--token <token>` (or NPM_TOKEN) publishes
// with that token, else with npm's login for the registry; `--skip-build` publishes the last
// build.
// `npm run release -- --dry-run [--skip-build]`: the same release, in a throw-away clone of this
// checkout (its uncommitted changes and pending changesets included; with --skip-build its
// built dist/ folders too) into a local registry it starts on a free port; then every released
// package is installed at its version into a fresh npm project from that registry, each entry
// imported with Node, and a table printed. Nothing in the checkout changes: no version, no
// changelog, no tag. It takes no --registry or --token. Exits 1 when anything failed.
import { resolve } from "node:path";
import { dryRunRelease } from "./dry-run.js";
import { dryRunTable } from "./dry-run-table.js";
import { release } from "./release.js";
import { releaseCommand } from "./release-args.js";

const root = resolve(import.meta.dirname, "..", "..");
const command = releaseCommand(process.argv.slice(2), process.env);
if (command.kind === "refused") {
  console.error(command.message);
  process.exit(1);
}
if (command.kind === "release") {
  await release({ root, registry: command.registry, token: command.token, build: command.build });
} else {
  // Ctrl-C or a CI timeout: stop at the next step, so the clone and the registry are removed.
  const stop = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => stop.abort(new Error(`stopped by ${signal}`)));
  }
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  try {
    const report = await dryRunRelease({
      root,
      build: command.build,
      signal: stop.signal,
      log: (line) => console.log(`[${elapsed()}] ${line}`),
    });
    console.log(`\n${dryRunTable(report.packages)}`);
    if (report.releaseFailure) console.error(`\nThe release failed: ${report.releaseFailure}`);
    if (!report.ok) {
      console.error(`\nThe dry run failed (${elapsed()}).`);
      process.exitCode = 1;
    } else {
      console.log(
        `\nDry run: ${report.packages.length} packages released and imported (${elapsed()}).`,
      );
    }
  } catch (error) {
    console.error(`The dry run did not finish: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
