import { describe, expect, it } from "vitest";
import { probeEntries } from "../entry-probe.js";
import type { WorkspacePackage } from "../workspace-packages.js";
import { folderWith } from "./fixture-folders.js";

/** A dual package installed in a project's node_modules: ESM and CJS sources by entry name. */
function installed(name: string, entries: Record<string, { esm: string; cjs: string }>) {
  const exportsMap = Object.fromEntries(
    Object.keys(entries).map((entry) => [
      entry === "index" ? "." : `./${entry}`,
      { import: `./${entry}.mjs`, require: `./${entry}.cjs` },
    ]),
  );
  const files: Record<string, string> = {
    [`node_modules/${name}/package.json`]: JSON.stringify({ name, exports: exportsMap }),
    "package.json": JSON.stringify({ name: "project", private: true }),
  };
  for (const [entry, { esm, cjs }] of Object.entries(entries)) {
    files[`node_modules/${name}/${entry}.mjs`] = esm;
    files[`node_modules/${name}/${entry}.cjs`] = cjs;
  }
  const pkg: WorkspacePackage = {
    folder: name,
    manifest: { name, version: "1.0.0" },
    entries: Object.keys(exportsMap).map((subpath) => ({
      subpath,
      specifier: subpath === "." ? name : `${name}/${subpath.slice(2)}`,
    })),
  };
  return { pkg, projectDir: folderWith(files) };
}

describe("probeEntries", () => {
  it("passes a main entry that loads both ways, touches nothing, and a node-only subpath", async () => {
    const { pkg, projectDir } = installed("clean", {
      index: {
        esm: "export const a = 1;\nexport function b() {}\n",
        cjs: "exports.a = 1;\nexports.b = () => {};\n",
      },
      files: {
        esm: 'import { readFileSync } from "node:fs";\nexport const read = readFileSync;\n',
        cjs: 'exports.read = require("node:fs").readFileSync;\n',
      },
    });
    expect(await probeEntries(pkg, projectDir)).toEqual([]);
  });

  it("reports a main entry that imports a built-in or reads the environment while loading", async () => {
    const { pkg, projectDir } = installed("leaky", {
      index: {
        esm: 'import path from "node:path";\nexport const color = process.env.NO_COLOR ? 0 : path.sep.length;\n',
        cjs: 'const path = require("path");\nexports.color = process.env.NO_COLOR ? 0 : path.sep.length;\n',
      },
    });
    const findings = await probeEntries(pkg, projectDir);
    expect(findings.map(({ check }) => check)).toEqual([
      "main-entry-node-import",
      "main-entry-environment-read",
    ]);
    expect(findings[0]!.detail).toBe(
      "node:path (from leaky/index.mjs); path (from leaky/index.cjs)",
    );
    expect(findings[1]!.detail).toBe("NO_COLOR by leaky/index.mjs; NO_COLOR by leaky/index.cjs");
  });

  it("reports an entry that fails to load, and ESM and CJS builds that export different names", async () => {
    const { pkg, projectDir } = installed("broken", {
      index: { esm: "export const a = 1;\nexport const b = 2;\n", cjs: "exports.a = 1;\n" },
      missing: { esm: 'import "not-installed";\n', cjs: 'require("not-installed");\n' },
    });
    const findings = await probeEntries(pkg, projectDir);
    expect(findings.map(({ check }) => check)).toEqual([
      "esm-cjs-exports",
      "import-esm",
      "import-cjs",
    ]);
    expect(findings[0]!.detail).toBe("broken: import() gives a, b; require gives a");
    expect(findings[1]!.detail).toMatch(/^broken\/missing: .*Cannot find package 'not-installed'/);
    expect(findings[2]!.detail).toMatch(/^broken\/missing: .*Cannot find module 'not-installed'/);
  });
});
