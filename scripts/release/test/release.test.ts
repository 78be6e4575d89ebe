// A release from a repository of two packages into a real npm registry (verdaccio on
// 127.0.0.1): the first publishes the versions as they are; a changeset then bumps the package
// it names, its dependant with it, writes both changelogs, publishes the new versions and tags
// them `<name>@<version>`.
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalRegistry, startLocalRegistry } from "../../registry/local-registry.js";
import { release } from "../release.js";

const run = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), "tessera-release-test-"));
let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startLocalRegistry(0);
});
afterAll(async () => {
  await registry.close();
  rmSync(folder, { recursive: true, force: true });
});

const git = (root: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd: root,
    encoding: "utf8",
  });

function write(root: string, path: string, value: unknown) {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), typeof value === "string" ? value : JSON.stringify(value));
}

/** `@tessera/release-a`, and `-b` that depends on it, both 0.1.0 with their changelogs. */
function repository(): string {
  const root = mkdtempSync(join(folder, "repo-"));
  const id = root
    .slice(-6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "x");
  write(root, "package.json", { name: "fixture", private: true, workspaces: ["packages/*"] });
  for (const [name, dependencies] of [
    ["a", {}],
    ["b", { [`@tessera/release-a-${id}`]: "0.1.0" }],
  ] as const) {
    const packageName = `@tessera/release-${name}-${id}`;
    write(root, `packages/${name}/package.json`, {
      name: packageName,
      version: "0.1.0",
      files: ["index.js", "CHANGELOG.md"],
      dependencies,
    });
    write(root, `packages/${name}/index.js`, "export {};\n");
    write(root, `packages/${name}/CHANGELOG.md`, `# ${packageName}\n\n## 0.1.0\n\nFirst.\n`);
  }
  write(root, ".changeset/config.json", {
    changelog: "@changesets/cli/changelog",
    commit: false,
    access: "public",
    baseBranch: "main",
    updateInternalDependencies: "patch",
  });
  git(root, "init", "-q", "-b", "main");
  git(root, "add", ".");
  git(root, "commit", "-q", "-m", "packages");
  return root;
}

/** The versions of `name` the registry has (npm runs as a child; the registry is ours). */
async function published(name: string): Promise<string[]> {
  const { stdout } = await run("npm", [
    "view",
    name,
    "versions",
    "--json",
    "--registry",
    registry.url,
  ]);
  const versions = JSON.parse(stdout) as string[] | string;
  return typeof versions === "string" ? [versions] : versions;
}

describe("release", () => {
  it("publishes new versions from the changesets, with changelogs and tags", async () => {
    const root = repository();
    const [a, b] = ["a", "b"].map(
      (name) =>
        (
          JSON.parse(readFileSync(join(root, `packages/${name}/package.json`), "utf8")) as {
            name: string;
          }
        ).name,
    ) as [string, string];
    await release({ root, registry: registry.url, token: "local", build: false });
    expect(await published(a)).toEqual(["0.1.0"]);
    expect(git(root, "tag", "--list").split("\n").filter(Boolean).sort()).toEqual(
      [`${a}@0.1.0`, `${b}@0.1.0`].sort(),
    );

    write(root, ".changeset/wave.md", `---\n"${a}": minor\n---\n\nAdds wave().\n`);
    git(root, "add", ".");
    git(root, "commit", "-q", "-m", "a changeset");
    await release({ root, registry: registry.url, token: "local", build: false });

    expect(await published(a)).toEqual(["0.1.0", "0.2.0"]);
    expect(await published(b)).toEqual(["0.1.0", "0.1.1"]);
    const changelog = readFileSync(join(root, "packages/a/CHANGELOG.md"), "utf8");
    expect(changelog).toMatch(/## 0\.2\.0[\s\S]*Adds wave\(\)\.[\s\S]*## 0\.1\.0/);
    const dependant = JSON.parse(readFileSync(join(root, "packages/b/package.json"), "utf8"));
    expect(dependant.dependencies[a]).toBe("0.2.0");
    expect(git(root, "tag", "--list")).toContain(`${a}@0.2.0`);
  });

  it("refuses a registry that is not an http(s) URL, before anything changes", async () => {
    const root = repository();
    await expect(release({ root, registry: "file:///tmp/x", build: false })).rejects.toThrow(
      /--registry must be an http\(s\) URL/,
    );
    expect(git(root, "status", "--porcelain")).toBe("");
  });
});
