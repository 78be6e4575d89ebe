import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Runs git in `root` (as a committer of its own) and returns what it printed. */
export function git(root: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd: root,
    encoding: "utf8",
  });
}

/** Writes `value` (a string as is, anything else as JSON) to `root/path`, making its folders. */
export function write(root: string, path: string, value: unknown): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), typeof value === "string" ? value : JSON.stringify(value));
}

/** A fixture repository and the names of its two packages. */
export interface BuiltFixture {
  readonly root: string;
  /** `@tessera/release-a-<id>`: entries `.` and `./extra`. */
  readonly a: string;
  /** `@tessera/release-b-<id>`: depends on `a` at 0.1.0, imports it. */
  readonly b: string;
}

// The fixture's build: each package's src/*.js copied to dist/, as `npm run build` makes dist/.
const BUILD = `import { cpSync, readdirSync } from "node:fs";
for (const name of readdirSync("packages")) {
  cpSync(\`packages/\${name}/src\`, \`packages/\${name}/dist\`, { recursive: true });
}
`;

/**
 * A repository (committed, on `main`) of two ES module packages at 0.1.0 that publish a built
 * `dist/` (ignored by git) and have a `npm run build` that makes it, with a changesets
 * configuration like this repository's.
 */
export function builtFixture(parent: string): BuiltFixture {
  const root = mkdtempSync(join(parent, "repo-"));
  const id = root
    .slice(-6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "x");
  const a = `@tessera/release-a-${id}`;
  const b = `@tessera/release-b-${id}`;
  write(root, "package.json", {
    name: "fixture",
    private: true,
    workspaces: ["packages/*"],
    scripts: { build: "node build.mjs" },
  });
  write(root, "build.mjs", BUILD);
  write(root, ".gitignore", "dist/\nnode_modules/\n");
  write(root, ".changeset/config.json", {
    changelog: "@changesets/cli/changelog",
    commit: false,
    access: "public",
    baseBranch: "main",
    updateInternalDependencies: "patch",
  });
  const manifest = (name: string, exports: Record<string, string>, dependencies = {}) => ({
    name,
    version: "0.1.0",
    type: "module",
    exports,
    files: ["dist", "CHANGELOG.md"],
    dependencies,
  });
  write(
    root,
    "packages/a/package.json",
    manifest(a, { ".": "./dist/index.js", "./extra": "./dist/extra.js" }),
  );
  write(root, "packages/a/src/index.js", 'export const wave = () => "wave";\n');
  write(root, "packages/a/src/extra.js", "export const extra = 1;\n");
  write(root, "packages/b/package.json", manifest(b, { ".": "./dist/index.js" }, { [a]: "0.1.0" }));
  write(
    root,
    "packages/b/src/index.js",
    `import { wave } from "${a}";\nexport const b = wave();\n`,
  );
  for (const [folder, name] of [
    ["a", a],
    ["b", b],
  ] as const) {
    write(root, `packages/${folder}/CHANGELOG.md`, `# ${name}\n\n## 0.1.0\n\nFirst.\n`);
  }
  git(root, "init", "-q", "-b", "main");
  git(root, "add", ".");
  git(root, "commit", "-q", "-m", "packages");
  return { root, a, b };
}

/** What a release may change in a repository: versions, changelogs, tags and the status. */
export function repositoryState(root: string): Record<string, string> {
  const state: Record<string, string> = {
    tags: git(root, "tag", "--list"),
    status: git(root, "status", "--porcelain", "--untracked-files=all"),
  };
  for (const folder of ["a", "b"]) {
    for (const file of ["package.json", "CHANGELOG.md"]) {
      const path = join(root, "packages", folder, file);
      state[`packages/${folder}/${file}`] = existsSync(path) ? readFileSync(path, "utf8") : "";
    }
  }
  return state;
}
