import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { WorkspacePackage } from "../check-packages/workspace-packages.js";
import { type Bump, largerBump, requiredBump } from "./required-bump.js";

/** A package whose API changed since its last release, and the bump that change needs. */
export interface ApiChange {
  readonly name: string;
  readonly needed: Bump;
  /** The reports that differ, `api/<package>/<entry>.api.md`. */
  readonly reports: readonly string[];
}

const git = (root: string, args: readonly string[]) =>
  execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/**
 * The commit of a package's last release: its tag, `<name>@<version>` of its package.json, as
 * `changeset publish` makes it. Undefined when there is none (not released yet).
 */
function lastRelease(root: string, pkg: WorkspacePackage): string | undefined {
  const tag = `refs/tags/${pkg.manifest.name}@${pkg.manifest.version}`;
  const commit = git(root, ["for-each-ref", "--format=%(objectname)^{commit}", tag]).trim();
  return commit === "" ? undefined : git(root, ["rev-parse", commit]).trim();
}

/** The report files of `folder` (relative to the root) in the working tree or at `commit`. */
function reportsOf(root: string, folder: string, commit?: string): Map<string, string> {
  const reports = new Map<string, string>();
  if (commit === undefined) {
    const absolute = join(root, folder);
    if (!existsSync(absolute)) return reports;
    for (const file of readdirSync(absolute).filter((name) => name.endsWith(".api.md"))) {
      reports.set(`${folder}/${file}`, readFileSync(join(absolute, file), "utf8"));
    }
    return reports;
  }
  const listed = git(root, ["ls-tree", "--name-only", commit, `${folder}/`]).split("\n");
  for (const path of listed.filter((name) => name.endsWith(".api.md"))) {
    reports.set(path, git(root, ["show", `${commit}:${path}`]));
  }
  return reports;
}

/**
 * Every package whose API reports (`api/<package folder>/*.api.md`) differ from those of its
 * last release, with the bump the difference needs. A package not released yet has nothing to
 * compare with, and needs none.
 */
export function apiChangesSinceRelease(
  root: string,
  packages: readonly WorkspacePackage[],
): ApiChange[] {
  return packages.flatMap((pkg) => {
    const release = lastRelease(root, pkg);
    if (release === undefined) return [];
    const folder = `api/${basename(pkg.folder)}`;
    const released = reportsOf(root, folder, release);
    const current = reportsOf(root, folder);
    let needed: Bump | undefined;
    const reports: string[] = [];
    for (const path of new Set([...released.keys(), ...current.keys()])) {
      const bump = requiredBump(released.get(path), current.get(path), pkg.manifest.version);
      if (bump === undefined) continue;
      reports.push(path);
      needed = largerBump(needed, bump);
    }
    return needed === undefined ? [] : [{ name: pkg.manifest.name, needed, reports }];
  });
}
