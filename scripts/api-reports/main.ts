// `npm run api:report`: the API report of every public entry (`api/<package>/<entry>.api.md`),
// extracted by API Extractor from the built declarations (run `npm run build` first), so every
// change of the public surface is a diff a reviewer reads. `npm run check:api` (CI) writes
// nothing and fails when a built entry differs from its checked-in report.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { workspacePackages } from "../check-packages/workspace-packages.js";
import { extractReport } from "./extract-report.js";
import { reportedEntries } from "./report-files.js";

const root = resolve(import.meta.dirname, "..", "..");
const update = !process.argv.includes("--check");
const entries = reportedEntries(root, workspacePackages(root));
const missing = entries.filter((entry) => !existsSync(entry.declarationFile));
if (missing.length > 0) {
  const names = missing.map((entry) => entry.specifier).join(", ");
  console.error(`No built declarations for ${names}: run \`npm run build\` first.`);
  process.exit(1);
}

const temporaryFolder = mkdtempSync(join(tmpdir(), "tessera-api-reports-"));
let failed = false;
try {
  for (const entry of entries) {
    const outcome = extractReport(entry, temporaryFolder);
    if (!outcome.ok) {
      failed = true;
      console.error(`${entry.specifier}: its declarations did not compile`);
      console.error(outcome.errors.join("\n"));
      continue;
    }
    const file = join(entry.reportFolder, `${entry.reportName}.api.md`);
    const checkedIn = existsSync(file) ? readFileSync(file, "utf8") : undefined;
    if (checkedIn === outcome.report) continue;
    if (update) {
      mkdirSync(entry.reportFolder, { recursive: true });
      writeFileSync(file, outcome.report);
    } else {
      failed = true;
    }
    console.log(`${update ? "updated" : "differs from the build"}: ${relative(root, file)}`);
  }
} finally {
  rmSync(temporaryFolder, { recursive: true, force: true });
}
if (failed && !update) {
  console.error(
    "The public API changed: run `npm run build && npm run api:report`, review the reports' diff, and add a changeset (`npx changeset`) for each package it changes.",
  );
}
process.exit(failed ? 1 : 0);
