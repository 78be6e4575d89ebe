import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { measureFootprint } from "../footprint.js";
import { folderWith } from "./fixture-folders.js";

describe("measureFootprint", () => {
  it("counts each package folder of node_modules/.pnpm and the bytes of its files", () => {
    const project = folderWith({
      "node_modules/.pnpm/@tessera+core@file+..+tarballs+tessera-core-0.1.0.tgz/node_modules/@tessera/core/index.js":
        "x".repeat(1000),
      "node_modules/.pnpm/postcss@8.5.3/node_modules/postcss/lib/input.js": "y".repeat(500),
      "node_modules/.pnpm/postcss@8.5.3/node_modules/postcss/package.json": "{}",
      "node_modules/.pnpm/lock.yaml": "z".repeat(10_000),
    });
    // Links between packages point into the store: not counted twice.
    symlinkSync(
      join(project, "node_modules/.pnpm/postcss@8.5.3/node_modules/postcss"),
      join(
        project,
        "node_modules/.pnpm/@tessera+core@file+..+tarballs+tessera-core-0.1.0.tgz/node_modules/postcss",
      ),
    );
    expect(measureFootprint(project)).toEqual({
      packages: ["@tessera/core", "postcss"],
      bytes: 1502,
    });
  });
});
