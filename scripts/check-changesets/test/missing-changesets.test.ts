// The changeset check on a real git repository: an API report changed since the package's
// last release (its tag `<name>@<version>`) needs a pending changeset of the right bump; a
// package with no release tag needs none; a new release starts the comparison again.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { missingChangesets } from "../missing-changesets.js";
import { requiredBump } from "../required-bump.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-changesets-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const REPORT = "export function greet(name: string): string;\n";

/** A repository whose package @example/greeting at `version` was released with REPORT. */
function releasedRepository(version: string) {
  const root = mkdtempSync(join(folder, "repo-"));
  const run = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "pipe" });
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    "packages/greeting/package.json",
    JSON.stringify({ name: "@example/greeting", version, exports: { ".": "./dist/index.js" } }),
  );
  write("packages/greeting/CHANGELOG.md", `# @example/greeting\n\n## ${version}\n`);
  write("api/greeting/index.api.md", REPORT);
  write(".changeset/config.json", JSON.stringify({ baseBranch: "main" }));
  run("init", "-q", "-b", "main");
  run("add", ".");
  run("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "release");
  run("tag", `@example/greeting@${version}`);
  const commit = (message: string) => {
    run("add", ".");
    run("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", message);
  };
  const changeset = (name: string, bump: string) =>
    write(`.changeset/${name}.md`, `---\n"@example/greeting": ${bump}\n---\n\nWhat changed.\n`);
  const tag = (name: string) => run("tag", name);
  return { root, write, commit, changeset, tag };
}

describe("requiredBump", () => {
  it("asks a breaking bump for a removed or changed line, a smaller one for additions", () => {
    const added = `${REPORT}export function wave(): void;\n`;
    expect(requiredBump(REPORT, REPORT, "0.1.0")).toBeUndefined();
    expect(requiredBump(REPORT, added, "0.1.0")).toBe("patch");
    expect(requiredBump(REPORT, added, "1.2.0")).toBe("minor");
    expect(requiredBump(added, REPORT, "0.1.0")).toBe("minor");
    expect(requiredBump(added, REPORT, "1.2.0")).toBe("major");
    expect(requiredBump(undefined, REPORT, "1.0.0")).toBe("minor");
    expect(requiredBump(REPORT, undefined, "1.0.0")).toBe("major");
  });
});

describe("missingChangesets", () => {
  it("finds nothing while the reports are those of the release", async () => {
    const { root } = releasedRepository("0.1.0");
    expect(await missingChangesets(root)).toEqual([]);
  });

  it("asks a minor changeset of a 0.x package for a changed export, and a patch is not enough", async () => {
    const { root, write, changeset } = releasedRepository("0.1.0");
    write("api/greeting/index.api.md", "export function greet(name: string | null): string;\n");
    expect(await missingChangesets(root)).toEqual([
      {
        name: "@example/greeting",
        needed: "minor",
        given: undefined,
        reports: ["api/greeting/index.api.md"],
      },
    ]);
    changeset("small", "patch");
    expect((await missingChangesets(root)).map((change) => change.given)).toEqual(["patch"]);
    changeset("breaking", "minor");
    expect(await missingChangesets(root)).toEqual([]);
  });

  it("asks a major of a 1.x package for a removed entry, a minor for a new one", async () => {
    const { root, write, changeset } = releasedRepository("1.0.0");
    write("api/greeting/extra.api.md", "export const extra: number;\n");
    expect((await missingChangesets(root)).map((change) => change.needed)).toEqual(["minor"]);
    changeset("feature", "minor");
    expect(await missingChangesets(root)).toEqual([]);
    rmSync(join(root, "api/greeting/index.api.md"));
    expect((await missingChangesets(root)).map((change) => change.needed)).toEqual(["major"]);
  });

  it("compares with the last release's tag, and needs nothing before the first", async () => {
    const { root, write, commit, tag } = releasedRepository("0.1.0");
    write("api/greeting/index.api.md", `${REPORT}export function wave(): void;\n`);
    commit("an addition, not released");
    expect((await missingChangesets(root)).map((change) => change.needed)).toEqual(["patch"]);
    write(
      "packages/greeting/package.json",
      JSON.stringify({ name: "@example/greeting", version: "0.1.1" }),
    );
    commit("version 0.1.1, not yet published: no tag, so no release to compare with");
    expect(await missingChangesets(root)).toEqual([]);
    tag("@example/greeting@0.1.1");
    write("api/greeting/index.api.md", REPORT);
    expect((await missingChangesets(root)).map((change) => change.needed)).toEqual(["minor"]);
  });
});
