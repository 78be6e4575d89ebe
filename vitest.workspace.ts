import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";

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

/** The projects whose tests run on PostgreSQL: they get a throw-away server for the run. */
const POSTGRES_PROJECTS = new Set([
  "cli",
  "sqlite",
  "postgres",
  "session",
  "repository",
  "example-app",
  "outbox",
  "outbound",
  "organizations",
]);
const postgresSetup = [resolve("test/support/postgres-global-setup.ts")];

/**
 * The example app's suites that also run with the app on PostgreSQL: every flow over HTTP.
 * Those left out look at SQLite itself (file sizes, an older file's migrations, a crash of the
 * one-file database), start the app as a process of their own (the cluster suite starts its
 * PostgreSQL processes itself), or drive a browser through a flow an HTTP suite here covers
 * (html-accounts, records-html, records-json-attachments): what a browser adds to it (scripts,
 * the CSP, cookies) does not depend on the engine. The OpenID Connect sign-in has no HTTP suite,
 * so its browser suite stays.
 */
const POSTGRES_APP_SUITES = [
  "account-throttle",
  "admin",
  "api-auth",
  "breached-passwords",
  "browser-oauth",
  "captcha",
  "graphql",
  "graphql-hostile",
  "graphql-organizations",
  "hostile-bodies",
  "hostile-nul",
  "html-accounts",
  "jwt-key-set",
  "openapi",
  "organization-audit",
  "organization-keys",
  "organization-pages",
  "organization-settings-pages",
  "organization-webhooks",
  "organizations",
  "records-html",
  "records-json",
  "records-json-access",
  "records-json-attachments",
  "refresh-tokens",
  "render-jobs",
  "tracked-sessions",
  "webhooks",
];

/**
 * Most projects' files share one module graph per worker process (`isolate: false`): loading
 * the same modules again for every file was a third of the suite's CPU (the example app alone
 * costs about 2 s per file). They can share: each file makes its own servers, databases and
 * clocks. These stay isolated: `password` mocks modules and globals; `http` checks the global
 * `Response`, which `@hono/node-server` replaces for whoever runs after it in a process;
 * `sqlite`'s D1 files leave workerd to the end of the process. (`fields`
 * shares now: its one module mock, of the rich_text sanitizer, became a spy sanitizer given to
 * the model when the sanitizer moved to @tessera/sanitizer.)
 */
const ISOLATED_FOLDERS = new Set(["packages/http", "packages/password", "packages/sqlite"]);
const SHARED_MODULES = { isolate: false } as const;

function projectName(folder: string): string {
  // Packages by their folder (`session`); examples as `example-<folder>`, since an adapter
  // package and its example share a folder name (`packages/hono`, `examples/hono`).
  const name = folder.split("/").pop()!;
  return folder.startsWith("examples/") ? `example-${name}` : name;
}

export const testProjects = [
  ...workspaceFolders.map((folder) => ({
    extends: true as const,
    test: {
      name: projectName(folder),
      root: folder,
      ...(POSTGRES_PROJECTS.has(projectName(folder)) ? { globalSetup: postgresSetup } : {}),
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      ...(ISOLATED_FOLDERS.has(folder) ? {} : SHARED_MODULES),
    },
  })),
  // The example app's end-to-end suites again, with the app on PostgreSQL (a schema of its own
  // per test server; see examples/app/test/support/test-server.ts).
  {
    extends: true as const,
    test: {
      name: "example-app-postgres",
      root: "examples/app",
      include: POSTGRES_APP_SUITES.map((suite) => `test/${suite}.test.ts`),
      env: { TESSERA_TEST_DATABASE: "postgres" },
      globalSetup: postgresSetup,
      ...SHARED_MODULES,
    },
  },
  // The GraphQL suites again, with operations compiled by graphql-jit (see its fixtures).
  {
    extends: true as const,
    test: {
      name: "graphql-jit",
      root: "packages/graphql",
      include: ["test/**/*.test.ts"],
      env: { TESSERA_TEST_GRAPHQL_EXECUTOR: "graphql-jit" },
      ...SHARED_MODULES,
    },
  },
  // Checks of the repository as a whole (links in its Markdown), in the root `test/` folder.
  // Its files share modules too: each imports most packages, and loading them again per file
  // was more than half of the project's time.
  {
    extends: true as const,
    test: {
      name: "repository",
      root: ".",
      include: ["test/**/*.test.ts"],
      globalSetup: postgresSetup,
      ...SHARED_MODULES,
    },
  },
  // The repository's own scripts (the packaging check) are tested too.
  {
    extends: true as const,
    test: { name: "scripts", root: "scripts", include: ["**/*.test.ts"] },
  },
];
