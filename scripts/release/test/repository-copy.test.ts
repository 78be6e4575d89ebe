// The copy a dry run releases: the repository's HEAD with its work tree's uncommitted state on
// top, node_modules linked, dist/ copied only when asked; and the repository left alone.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyRepository } from "../repository-copy.js";
import { builtFixture, git, repositoryState, write } from "./fixture-repository.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-repository-copy-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A fixture with a change of each kind in its work tree, node_modules and a built dist/. */
function changedFixture(): string {
  const { root } = builtFixture(folder);
  git(root, "tag", "existing");
  write(root, "packages/a/src/extra.js", "export const extra = 2;\n");
  write(root, "packages/b/src/new.js", "export const added = true;\n");
  rmSync(join(root, "packages/a/CHANGELOG.md"));
  write(root, "packages/b/src/staged.js", "export const staged = true;\n");
  git(root, "add", "packages/b/src/staged.js");
  write(root, "packages/a/dist/index.js", "export {};\n");
  mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
  mkdirSync(join(root, "packages/b/node_modules/left-pad"), { recursive: true });
  return root;
}

describe("copyRepository", () => {
  it("copies HEAD with the work tree's changes, links node_modules, and changes nothing", () => {
    const root = changedFixture();
    const before = repositoryState(root);
    const temp = mkdtempSync(join(folder, "temp-"));
    const copy = copyRepository(root, { temp, dist: false });
    try {
      const read = (path: string) => readFileSync(join(copy.root, path), "utf8");
      expect(read("packages/a/src/extra.js")).toBe("export const extra = 2;\n");
      expect(read("packages/b/src/new.js")).toBe("export const added = true;\n");
      expect(read("packages/b/src/staged.js")).toBe("export const staged = true;\n");
      expect(existsSync(join(copy.root, "packages/a/CHANGELOG.md"))).toBe(false);
      expect(read("packages/a/src/index.js")).toBe('export const wave = () => "wave";\n');
      expect(existsSync(join(copy.root, "packages/a/dist"))).toBe(false);
      expect(lstatSync(join(copy.root, "node_modules")).isSymbolicLink()).toBe(true);
      expect(existsSync(join(copy.root, "node_modules/.bin"))).toBe(true);
      expect(existsSync(join(copy.root, "packages/b/node_modules/left-pad"))).toBe(true);
      // Tagging in the copy stays in the copy.
      git(copy.root, "tag", "only-in-the-copy");
    } finally {
      copy.remove();
    }
    expect(readdirSync(temp)).toEqual([]);
    expect(existsSync(join(root, "node_modules/.bin"))).toBe(true);
    expect(repositoryState(root)).toEqual(before);
  });

  it("copies each workspace's dist/ when asked", () => {
    const root = changedFixture();
    const copy = copyRepository(root, { temp: folder, dist: true });
    try {
      expect(readFileSync(join(copy.root, "packages/a/dist/index.js"), "utf8")).toBe(
        "export {};\n",
      );
      expect(existsSync(join(copy.root, "packages/b/dist"))).toBe(false);
    } finally {
      copy.remove();
    }
  });

  it("refuses a folder that is not a git repository", () => {
    const root = mkdtempSync(join(folder, "plain-"));
    expect(() => copyRepository(root, { temp: folder, dist: false })).toThrow(/git/);
  });
});
