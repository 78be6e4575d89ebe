import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAppScript } from "./support/app-process.js";

/** Runs `npm run sweep`'s script in a temporary folder with the given settings. */
function sweep(environment: Record<string, string>) {
  const folder = mkdtempSync(join(tmpdir(), "tessera-sweep-"));
  try {
    return runAppScript("src/sweep.ts", folder, environment);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe("npm run sweep", () => {
  it("runs one sweep on the database and reports it", () => {
    const result = sweep({
      RENDER_URL: "http://127.0.0.1:9/render",
      RENDER_SECRET: "s",
      APP_URL: "https://app.example",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      "Swept render jobs: 0 retried (0 accepted), 0 failed after the last attempt, 0 failed as stale.",
    );
  });

  it("says which settings are missing", () => {
    const result = sweep({ APP_URL: "https://app.example" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "Cannot sweep: set RENDER_URL, RENDER_SECRET to sweep render jobs",
    );
  });
});
