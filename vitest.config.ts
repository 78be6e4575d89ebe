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
    ],
  },
  test: {
    projects: testProjects,
    testTimeout: 20_000,
  },
});
