import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { testProjects } from "./vitest.workspace.ts";

const packagesDir = fileURLToPath(new URL("./packages", import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against each package's TypeScript source, not its build output.
    alias: [
      { find: /^@tessera\/([^/]+)$/, replacement: `${packagesDir}/$1/src/index.ts` },
      { find: /^@tessera\/([^/]+)\/(.+)$/, replacement: `${packagesDir}/$1/src/$2.ts` },
      // graphql 16 ships a CommonJS and an ESM copy. Node loads the CommonJS one for every
      // package that imports it (graphql-http, graphql-scalars); the sources must get the same
      // copy, or graphql refuses the scalars as coming "from another module or realm".
      { find: /^graphql$/, replacement: createRequire(import.meta.url).resolve("graphql") },
    ],
  },
  test: {
    projects: testProjects,
    testTimeout: 20_000,
  },
});
