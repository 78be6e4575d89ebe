import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * The test projects: one per workspace package (packages/* and examples/*) that has tests,
 * `repository` for the root `test/` folder, and `scripts` for the repository's own scripts.
 * Vitest 4 reads projects from `test.projects`; vitest.config.ts imports this list.
 */
const workspaceFolders = ["packages", "examples"].flatMap((parent) =>
  readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(parent, entry.name, "package.json")))
    .map((entry) => join(parent, entry.name)),
);

export const testProjects = [
  ...workspaceFolders.map((folder) => ({
    extends: true as const,
    test: {
      // Packages by their folder (`session`); examples as `example-<folder>`, since an adapter
      // package and its example share a folder name (`packages/hono`, `examples/hono`).
      name: folder.startsWith("examples/")
        ? `example-${folder.split("/").pop()}`
        : folder.split("/").pop()!,
      root: folder,
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    },
  })),
  // Checks of the repository as a whole (links in its Markdown), in the root `test/` folder.
  {
    extends: true as const,
    test: { name: "repository", root: ".", include: ["test/**/*.test.ts"] },
  },
  // The repository's own scripts (the packaging check) are tested too.
  {
    extends: true as const,
    test: { name: "scripts", root: "scripts", include: ["**/*.test.ts"] },
  },
];
