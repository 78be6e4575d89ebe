import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { dirname, join } from "node:path";

/** A throw-away copy of a repository, and how to remove it. */
export interface RepositoryCopy {
  /** The copy's work tree. */
  readonly root: string;
  /** Removes the copy (its node_modules links, not what they point to). */
  remove(): void;
}

/** What {@link copyRepository} brings beyond the committed tree. */
export interface CopyOptions {
  /** The folder the copy is made in (a new folder inside it). */
  readonly temp: string;
  /** Copies each workspace package's `dist/` (ignored by git) too, for a release without a build. */
  readonly dist: boolean;
}

/** git without the optional index refresh: reading the user's repository writes nothing to it. */
function git(cwd: string, args: readonly string[]): string {
  return execFileSync("git", ["--no-optional-locks", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The workspace folders `root/package.json` names (`packages/*` read as its subfolders). */
function workspaceFolders(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    workspaces?: readonly string[] | { readonly packages?: readonly string[] };
  };
  const patterns = Array.isArray(manifest.workspaces)
    ? manifest.workspaces
    : ((manifest.workspaces as { packages?: readonly string[] } | undefined)?.packages ?? []);
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [pattern];
    const parent = pattern.slice(0, -2);
    if (!existsSync(join(root, parent))) return [];
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(parent, entry.name));
  });
}

/**
 * Makes the work tree of a `git clone` of `root` what `root`'s work tree is now: each file that
 * differs from HEAD (staged or not) or is untracked and not ignored is copied over, each one
 * deleted there is deleted here, so a release of the copy is the release of this checkout.
 */
function takeWorkingTree(root: string, copy: string): void {
  const listed = (args: readonly string[]) => git(root, args).split("\0").filter(Boolean);
  const paths = new Set([
    ...listed(["diff", "--name-only", "--no-renames", "-z", "HEAD", "--"]),
    ...listed(["ls-files", "--others", "--exclude-standard", "-z"]),
  ]);
  for (const path of paths) {
    const from = join(root, path);
    const to = join(copy, path);
    if (lstatSync(from, { throwIfNoEntry: false })) {
      mkdirSync(dirname(to), { recursive: true });
      rmSync(to, { recursive: true, force: true });
      cpSync(from, to, { recursive: true, verbatimSymlinks: true });
    } else {
      rmSync(to, { recursive: true, force: true });
    }
  }
}

/**
 * Clones `root` (its HEAD, with its history: changesets reads the commits that added each
 * changeset) into a new folder under `options.temp`, then brings in the uncommitted state of
 * its work tree, links the copy's node_modules folders (the root's and each workspace's) to
 * `root`'s, and with `options.dist` copies each workspace's built `dist/`. Versioning,
 * building, publishing and tagging in the copy change nothing in `root`.
 */
export function copyRepository(root: string, options: CopyOptions): RepositoryCopy {
  const head = git(root, ["rev-parse", "--verify", "HEAD"]).trim();
  const folder = mkdtempSync(join(options.temp, "tessera-release-copy-"));
  const remove = () => rmSync(folder, { recursive: true, force: true });
  const copy = join(folder, "repository");
  try {
    git(folder, ["clone", "--quiet", "--no-checkout", root, copy]);
    git(copy, ["checkout", "--quiet", "--detach", head]);
    // Nothing done in the copy can reach back into the repository it came from.
    git(copy, ["remote", "remove", "origin"]);
    takeWorkingTree(root, copy);
    for (const workspace of [".", ...workspaceFolders(root)]) {
      if (!existsSync(join(copy, workspace))) continue;
      const modules = join(root, workspace, "node_modules");
      if (existsSync(modules) && !existsSync(join(copy, workspace, "node_modules"))) {
        symlinkSync(modules, join(copy, workspace, "node_modules"), "dir");
      }
      const dist = join(root, workspace, "dist");
      if (options.dist && workspace !== "." && existsSync(dist)) {
        cpSync(dist, join(copy, workspace, "dist"), { recursive: true, verbatimSymlinks: true });
      }
    }
  } catch (error) {
    remove();
    throw error;
  }
  return { root: copy, remove };
}
