// The API report of a package's built declarations, by API Extractor: its exports and their
// declarations are in it, the lines that say nothing of the surface are not, and a change of a
// signature changes the report (which `npm run check:api` then finds).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { extractReport } from "../extract-report.js";
import { reportedEntries } from "../report-files.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-api-report-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A package `@example/greeting` whose built main entry declares `declarations`. */
function packageWith(declarations: string) {
  const root = mkdtempSync(join(folder, "root-"));
  const packageFolder = join(root, "packages", "greeting");
  mkdirSync(join(packageFolder, "dist"), { recursive: true });
  writeFileSync(
    join(packageFolder, "package.json"),
    JSON.stringify({
      name: "@example/greeting",
      version: "0.1.0",
      exports: { ".": "./dist/index.js" },
    }),
  );
  writeFileSync(join(packageFolder, "dist", "index.d.ts"), declarations);
  const manifest = { name: "@example/greeting", version: "0.1.0" };
  const [entry] = reportedEntries(root, [
    { folder: packageFolder, manifest, entries: [{ subpath: ".", specifier: manifest.name }] },
  ]);
  return entry!;
}

const GREETING = `interface Options {
  readonly excited?: boolean;
}
/** Greets someone. */
export declare function greet(name: string, options?: Options): string;
export declare class Greeter {
  constructor(prefix: string);
  greet(name: string): string;
}
export {};
`;

describe("extractReport", () => {
  it("reports every export with its declaration, and its report goes under api/<package>", () => {
    const entry = packageWith(GREETING);
    expect(entry.reportFolder).toMatch(/api[/\\]greeting$/);
    expect(entry.reportName).toBe("index");
    const outcome = extractReport(entry, mkdtempSync(join(folder, "tmp-")));
    if (!outcome.ok) throw new Error(outcome.errors.join("\n"));
    expect(outcome.report).toContain('## API Report File for "@example/greeting"');
    expect(outcome.report).toContain(
      "export function greet(name: string, options?: Options): string;",
    );
    expect(outcome.report).toContain("export class Greeter {");
    expect(outcome.report).toContain("    greet(name: string): string;");
    // A type the entry uses but does not export is reported too: its change is a change.
    expect(outcome.report).toContain("readonly excited?: boolean;");
    expect(outcome.report).not.toMatch(/@public|\(undocumented\)|\r/);
  });

  it("gives another report when a signature changes", () => {
    const tmp = mkdtempSync(join(folder, "tmp-"));
    const before = extractReport(packageWith(GREETING), tmp);
    const after = extractReport(
      packageWith(GREETING.replace("name: string, options", "name: string | null, options")),
      mkdtempSync(join(folder, "tmp-")),
    );
    if (!before.ok || !after.ok) throw new Error("not extracted");
    expect(after.report).not.toBe(before.report);
    expect(after.report).toContain("greet(name: string | null, options?: Options): string;");
  });

  it("refuses declarations that do not compile", () => {
    const outcome = extractReport(
      packageWith("export declare function broken(): Missing;\n"),
      mkdtempSync(join(folder, "tmp-")),
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.errors.join("\n")).toContain("Missing");
  });
});
