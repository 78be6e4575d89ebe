import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import {
  benchSectionFiles,
  datedSection,
  removeBenchSection,
  replaceBenchSection,
} from "./bench-sections.ts";

/**
 * Runs every `packages/<name>/bench/*.bench.ts` and `examples/<name>/bench/*.bench.ts` one after
 * another (each in its own process, so one does not warm or load another) and writes their
 * Markdown sections, each with its date, to docs/benchmarks.md.
 * `npm run bench -- <filter>` runs only the files whose path contains the filter, and replaces
 * only their sections.
 */
const filter = process.argv[2] ?? "";
const benchFiles = ["packages", "examples"]
  .flatMap((parent) =>
    readdirSync(parent)
      .map((name) => join(parent, name, "bench"))
      .filter((folder) => existsSync(folder))
      .flatMap((folder) =>
        readdirSync(folder)
          .filter((file) => file.endsWith(".bench.ts"))
          .map((file) => join(folder, file)),
      ),
  )
  .filter((file) => file.includes(filter));

const today = new Date().toISOString().slice(0, 10);
const sections = benchFiles.map((file) => {
  console.error(`running ${file}`);
  const output = execFileSync(process.execPath, ["--import", "tsx", file], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return { file, body: datedSection(output, today) };
});

const cpu = cpus()[0]?.model ?? "unknown CPU";
const header = [
  "# Benchmarks",
  "",
  `Measured by \`npm run bench\` on ${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB,`,
  `Node ${process.version}, ${process.platform}/${process.arch}; each section says when.`,
  "Figures are medians of interleaved rounds, with the lowest and highest round in brackets; each",
  "ratio compares contenders measured in the same run, the first row of a table being the",
  "baseline. Absolute numbers vary between machines; the ratios are the point.",
  "",
].join("\n");

// The sections the run made replace theirs where they stand; the others, and those of other
// generators (the install footprint of `npm run check:packages`, the soaks of
// `npm run soak -- --write` with their reading written by hand), are kept. A full run drops the
// sections of bench files that no longer exist.
const path = "docs/benchmarks.md";
const previous = existsSync(path) ? readFileSync(path, "utf8") : header;
// Everything from the first section on is kept; the header above it is this run's.
const firstSection = previous.search(/^<!-- /m);
let document = `${header}\n${firstSection === -1 ? "" : previous.slice(firstSection)}`;
for (const { file, body } of sections) document = replaceBenchSection(document, file, body);
if (!filter) {
  for (const file of benchSectionFiles(document)) {
    if (!benchFiles.includes(file)) document = removeBenchSection(document, file);
  }
}
writeFileSync(path, document);
if (filter) process.stdout.write(`${sections.map(({ body }) => body).join("\n\n")}\n`);
console.error(`wrote ${sections.length} section(s) to ${path}`);
