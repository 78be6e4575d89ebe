// The `tessera` bin as npm links it: it must run right after `npm install` in this repository,
// before any build, and from any folder.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { USAGE } from "../src/index.js";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const LINKED_BIN = fileURLToPath(new URL("../../../node_modules/.bin/tessera", import.meta.url));
const FROM_SOURCE = join(PACKAGE_DIR, "bin", "tessera-from-source.js");

function run(command: string, args: readonly string[], cwd: string) {
  return spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
}

let appDir: string;
beforeEach(() => {
  appDir = mkdtempSync(join(tmpdir(), "tessera-launcher-"));
});
afterEach(() => {
  rmSync(appDir, { recursive: true, force: true });
});

describe("the tessera bin", () => {
  it("is declared as bin/tessera.js, which npm links into node_modules/.bin", () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8"));
    expect(manifest.bin).toEqual({ tessera: "./bin/tessera.js" });
    expect(realpathSync(LINKED_BIN)).toBe(join(PACKAGE_DIR, "bin", "tessera.js"));
  });

  it("prints the usage through node_modules/.bin/tessera, built or not", () => {
    const result = run(LINKED_BIN, ["--help"], appDir);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(`${USAGE}\n`);
    expect(result.status).toBe(0);
  });

  it("runs the TypeScript sources without a build, from another folder", () => {
    const help = run(process.execPath, [FROM_SOURCE, "--help"], appDir);
    expect(help.stdout).toBe(`${USAGE}\n`);
    expect(help.status).toBe(0);

    // `check` parses through @tessera/fields, so its sources must resolve too.
    const checked = run(process.execPath, [FROM_SOURCE, "check", "title:string", "--json"], appDir);
    expect(checked.status).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({
      ok: true,
      fields: [expect.objectContaining({ name: "title", type: "string" })],
    });

    const refused = run(process.execPath, [FROM_SOURCE, "check", "published:bool?"], appDir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("error: boolean field `published` cannot be optional");
  });
});
