// `npm run release -- --dry-run` on a fixture repository with a pending changeset (not yet
// committed) and an uncommitted fix: the release runs in a copy into a registry of its own,
// every released package is installed at its version into a fresh project and imported, and
// the repository is left exactly as it was; a package that does not load fails the dry run.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dryRunRelease } from "../dry-run.js";
import { builtFixture, git, repositoryState, write } from "./fixture-repository.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-dry-run-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A fresh folder for a dry run's temporary folders, to see that it empties it. */
const tempFolder = () => mkdtempSync(join(folder, "temp-"));

describe("dryRunRelease", () => {
  it("releases the checkout's next versions into its own registry, installs and imports them, and changes nothing", async () => {
    const { root, a, b } = builtFixture(folder);
    // Committed, a's entry throws: only the work tree's fix makes the released package load.
    write(root, "packages/a/src/index.js", 'throw new Error("the committed file was released");\n');
    git(root, "commit", "-q", "-am", "a's entry throws");
    write(root, "packages/a/src/index.js", 'export const wave = () => "wave";\n');
    // The pending changeset is in the work tree only, as `npx changeset` leaves it.
    write(root, ".changeset/wave.md", `---\n"${a}": minor\n---\n\nAdds wave().\n`);
    const before = repositoryState(root);
    const temp = tempFolder();

    const report = await dryRunRelease({ root, build: true, temp });

    expect(report.releaseFailure).toBeUndefined();
    expect(report.packages).toEqual([
      { name: a, version: "0.2.0", published: true, imported: true, failure: undefined },
      { name: b, version: "0.1.1", published: true, imported: true, failure: undefined },
    ]);
    expect(report.ok).toBe(true);
    expect(repositoryState(root)).toEqual(before);
    expect(existsSync(join(root, "packages/a/dist"))).toBe(false);
    expect(readdirSync(temp)).toEqual([]);
    await expect(fetch(report.registry)).rejects.toThrow();
  }, 120_000);

  it("fails when a released package does not load, with the built dist/ of --skip-build", async () => {
    const { root, a, b } = builtFixture(folder);
    write(root, ".changeset/wave.md", `---\n"${a}": patch\n---\n\nFixes wave().\n`);
    // Built, not committed (dist/ is ignored): a's loads, b's throws.
    write(root, "packages/a/dist/index.js", 'export const wave = () => "wave";\n');
    write(root, "packages/a/dist/extra.js", "export const extra = 1;\n");
    write(root, "packages/b/dist/index.js", 'throw new Error("b is broken");\n');
    const before = repositoryState(root);
    const temp = tempFolder();

    const report = await dryRunRelease({ root, build: false, temp });

    expect(report.releaseFailure).toBeUndefined();
    expect(
      report.packages.map(({ name, version, published, imported }) => ({
        name,
        version,
        published,
        imported,
      })),
    ).toEqual([
      { name: a, version: "0.1.1", published: true, imported: true },
      { name: b, version: "0.1.1", published: true, imported: false },
    ]);
    expect(report.packages[1]?.failure).toContain("b is broken");
    expect(report.ok).toBe(false);
    expect(repositoryState(root)).toEqual(before);
    expect(readdirSync(temp)).toEqual([]);
  }, 120_000);
});
