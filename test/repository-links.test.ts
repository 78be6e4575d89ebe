// A clone of the repository must be readable on its own: every relative link in a tracked
// Markdown file leads to a tracked file (and heading) inside it, and nothing points at the
// documents that lived beside the repository while it was first written.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { headingAnchors, markdownLinks } from "./markdown-links.ts";

const repositoryRoot = fileURLToPath(new URL("..", import.meta.url));

function git(...args: string[]): string {
  return execFileSync("git", args, { cwd: repositoryRoot, encoding: "utf8" });
}

/** What a clone holds: tracked files only, so a file left untracked cannot hide a bad link. */
const trackedFiles = git("ls-files", "-z")
  .split("\0")
  .filter((path) => path !== "");
const tracked = new Set(trackedFiles);
const trackedFolders = new Set(
  trackedFiles.flatMap((path) =>
    path
      .split("/")
      .slice(0, -1)
      .map((_, index, parts) => parts.slice(0, index + 1).join("/")),
  ),
);
const markdownFiles = trackedFiles.filter((path) => path.endsWith(".md"));

function read(path: string): string {
  return readFileSync(posix.join(repositoryRoot, path), "utf8");
}

/** Where a relative target points, from the repository root; undefined when it leaves it. */
function resolveTarget(fromFile: string, target: string): string | undefined {
  const joined = target.startsWith("/")
    ? posix.normalize(target.slice(1))
    : posix.join(posix.dirname(fromFile), target);
  const normalized = posix.normalize(joined).replace(/\/$/, "");
  if (normalized === ".." || normalized.startsWith("../") || posix.isAbsolute(normalized)) {
    return undefined;
  }
  return normalized === "" ? "." : normalized;
}

/** Every problem with one Markdown file's relative links, as readable lines. */
function linkProblems(file: string): string[] {
  const problems: string[] = [];
  for (const link of markdownLinks(read(file))) {
    const where = `${file}:${link.line}: ${link.target}`;
    const hash = link.target.indexOf("#");
    const pathPart = decodeURIComponent(hash < 0 ? link.target : link.target.slice(0, hash));
    const anchor = hash < 0 ? undefined : decodeURIComponent(link.target.slice(hash + 1));
    const path = pathPart === "" ? file : resolveTarget(file, pathPart.split("?")[0]!);
    if (path === undefined) {
      problems.push(`${where} leaves the repository`);
      continue;
    }
    if (!tracked.has(path) && !trackedFolders.has(path) && path !== ".") {
      problems.push(`${where} names no tracked file or folder`);
      continue;
    }
    if (anchor !== undefined && anchor !== "" && path.endsWith(".md") && tracked.has(path)) {
      if (!headingAnchors(read(path)).has(anchor.toLowerCase())) {
        problems.push(`${where} names no heading of ${path}`);
      }
    }
  }
  return problems;
}

// Spelled in pieces so that this file does not mention what it looks for.
const OUTSIDE_REFERENCES = [
  ["..", "shared"].join("/"),
  ["service", "spec"].join("-"),
  ["DESIGN", "md"].join("."),
  [["EXAMPLE", "APP"].join("-"), "md"].join("."),
];

describe("links in the repository", () => {
  it("finds the Markdown files a clone has", () => {
    expect(markdownFiles).toContain("README.md");
    expect(markdownFiles).toContain("docs/README.md");
  });

  it("leads every relative link of every tracked Markdown file to a tracked file inside the repository", () => {
    expect(markdownFiles.flatMap(linkProblems)).toEqual([]);
  });

  it("mentions no document outside the repository in any tracked file", () => {
    const mentions: string[] = [];
    for (const file of trackedFiles) {
      if (file.endsWith("package-lock.json") || file.startsWith("docs/screenshots/")) continue;
      const text = read(file);
      if (text.includes("\0")) continue;
      for (const [index, line] of text.split("\n").entries()) {
        for (const reference of OUTSIDE_REFERENCES) {
          if (line.includes(reference) && !tracked.has(reference)) {
            mentions.push(`${file}:${index + 1}: ${reference}`);
          }
        }
      }
    }
    expect(mentions).toEqual([]);
  });
});
