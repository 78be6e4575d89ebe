import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { SlowestFirstSequencer } from "./test/support/slowest-first-sequencer.ts";
import { testProjects } from "./vitest.workspace.ts";

const packagesDir = fileURLToPath(new URL("./packages", import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against each package's TypeScript source, not its build output.
    alias: [
      { find: /^@tessera\/([^/]+)$/, replacement: `${packagesDir}/$1/src/index.ts` },
      { find: /^@tessera\/([^/]+)\/(.+)$/, replacement: `${packagesDir}/$1/src/$2.ts` },
      // graphql keeps one set of modules for every package that imports it (graphql-http,
      // graphql-scalars), which Node loads itself; resolved by Vite instead, the sources would
      // get a second set, and graphql refuses the scalars as "from another module or realm".
      // Node gives `import` and `require` alike graphql 17's ESM build (`module-sync`).
      { find: /^graphql$/, replacement: createRequire(import.meta.url).resolve("graphql") },
    ],
  },
  test: {
    projects: testProjects,
    testTimeout: 20_000,
    // Setup hooks start what the tests talk to (an app server, chromium, workerd): on a busy
    // 2-core machine they can take as long as a test, so they get the same time (Vitest's
    // default is 10 s, which a browser suite's start once overran in a fresh-clone run).
    hookTimeout: 20_000,
    // Vitest's default is one file less than the cores: one at a time on a 2-core machine. Many
    // files mostly wait (on a browser, workerd, PostgreSQL, a child process or a real clock), so
    // two share two cores well; three were slower here (12.7 minutes against 11.9), and made a
    // browser flow miss its timeout.
    maxWorkers: Math.max(2, availableParallelism()),
    // The slowest files first, so that no long file is left running alone at the end.
    sequence: { sequencer: SlowestFirstSequencer },
  },
});
