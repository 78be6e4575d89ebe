// @tessera/graphql loads on Deno with no permission beyond reading the project: no env access
// (graphql 16 read NODE_ENV when it loaded, which Deno refuses without --allow-env).
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, expect, it } from "vitest";
import { runCommand } from "../../../scripts/check-packages/run-command.js";

const root = join(import.meta.dirname, "..", "..", "..");
// Inside the project, so Deno's read permission covers it and npm packages resolve through the
// project's node_modules; `.runtime-matrix*` folders are ignored by git.
const workDir = mkdtempSync(join(root, ".runtime-matrix-graphql-deno-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

it("creates a note through POST /graphql on Deno without --allow-env", async () => {
  const program = join(workDir, "create-note.mjs");
  // The Tessera sources are bundled in (through the root tsconfig's paths); npm packages stay
  // imports, so Deno loads graphql and the rest as a user's app would.
  await build({
    entryPoints: [join(import.meta.dirname, "deno", "create-note.ts")],
    outfile: program,
    bundle: true,
    format: "esm",
    platform: "neutral",
    tsconfig: join(root, "tsconfig.json"),
    logLevel: "silent",
    plugins: [
      {
        name: "npm-packages-external",
        setup(bundler) {
          bundler.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("@tessera/") ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  const deno = join(root, "node_modules", ".bin", "deno");
  const run = await runCommand(deno, ["run", "--no-prompt", `--allow-read=${root}`, program], {
    cwd: workDir,
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    timeoutMs: 60_000,
  });
  expect(run.stderr).toBe("");
  expect(JSON.parse(run.stdout)).toEqual({ data: { createNote: { title: "From Deno" } } });
  expect(run.code).toBe(0);
});
