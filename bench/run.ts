import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { markedSection } from "../scripts/marked-section.ts";

/**
 * Runs every `packages/<name>/bench/*.bench.ts` and `examples/<name>/bench/*.bench.ts` one after
 * another (each in its own process, so one does not warm or load another) and writes their
 * Markdown sections with the date and machine to docs/benchmarks.md.
 * `npm run bench -- <filter>` runs only the files whose path contains the filter.
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

const sections: string[] = [];
for (const file of benchFiles) {
  console.error(`running ${file}`);
  const output = execFileSync(process.execPath, ["--import", "tsx", file], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  sections.push(`<!-- ${file} -->\n${output.trim()}\n`);
}

const cpu = cpus()[0]?.model ?? "unknown CPU";
const header = [
  "# Benchmarks",
  "",
  `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench\` on ${cpus().length} × ${cpu},`,
  `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}.`,
  "Figures are medians of interleaved rounds, with the lowest and highest round in brackets; each",
  "ratio compares contenders measured in the same run, the first row of a table being the",
  "baseline. Absolute numbers vary between machines; the ratios are the point.",
  "",
].join("\n");
const document = `${header}\n${sections.join("\n")}`;
if (filter) process.stdout.write(document);
else {
  // The install footprint (`npm run check:packages`) and the soaks (`npm run soak -- --write`,
  // with the reading of their curves, written by hand) come from elsewhere: carry them over.
  const previous = readFileSync("docs/benchmarks.md", "utf8");
  const carried = ["install-footprint", "soak-sqlite", "soak-postgresql", "soak-findings"]
    .map((name) => markedSection(previous, name))
    .filter((section) => section !== undefined);
  writeFileSync(
    "docs/benchmarks.md",
    [document, ...carried].join("\n") + (carried.length ? "\n" : ""),
  );
}
