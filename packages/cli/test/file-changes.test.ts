import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyFileChanges } from "../src/file-changes.js";

let app: string;
beforeEach(() => {
  app = mkdtempSync(join(tmpdir(), "tessera-changes-"));
});
afterEach(() => {
  rmSync(app, { recursive: true, force: true });
});

describe("applyFileChanges", () => {
  it("removes the files it created, and their new folders, when a module cannot be rewritten", () => {
    const changes = {
      created: [["migrations/0001_add_views_to_posts.sql", "SELECT 1;\n"]] as const,
      // A module in a folder that does not exist: rewriting it fails after the create.
      updated: [["src/models/missing/post.ts", "export {};\n"]] as const,
    };
    expect(() => applyFileChanges(app, changes, { pretend: false })).toThrow(/ENOENT/);
    expect(existsSync(join(app, "migrations"))).toBe(false);
    expect(readdirSync(app)).toEqual([]);
  });
});
