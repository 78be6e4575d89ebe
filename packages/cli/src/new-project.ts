import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { accountFiles, type Outcome } from "./commands.js";
import { applyFileChanges } from "./file-changes.js";
import type { Invocation } from "./invocation.js";
import { ROUTES_MARKER } from "./model-mount.js";
import { FRAMEWORKS, type Framework } from "./new-project-frameworks.js";
import { NPM_RANGES } from "./new-project-versions.js";
import { cliVersion } from "./package-folder.js";
import { renderTemplate } from "./template.js";

type Database = "sqlite" | "postgres";
type ProjectFile = readonly [path: string, content: string];

/**
 * `tessera new <dir>`: a Hono, Express or Fastify project in a new (or empty) folder —
 * package.json, the app with the account routes, its settings, the account migrations and
 * model, a test — and the next steps. Only app.ts, the listening lines of main.ts and the
 * test's client differ between frameworks. Refused, writing nothing, when the folder exists
 * and holds anything.
 */
export async function newProject(
  invocation: Invocation,
  base: string,
  accountsFor: typeof accountFiles = accountFiles,
): Promise<Outcome> {
  const directory = invocation.directory ?? "";
  const target = resolve(base, directory);
  if (existsSync(target)) {
    if (!statSync(target).isDirectory()) {
      return refused(`\`${directory}\` exists and is not a folder`, "choose another name");
    }
    if (readdirSync(target).length > 0) {
      return refused(
        `\`${directory}\` exists and is not empty`,
        "choose a new folder name, or empty the folder first",
      );
    }
  }
  const database: Database = invocation.database === "postgres" ? "postgres" : "sqlite";
  const framework: Framework = invocation.framework ?? "hono";
  const command = [
    "tessera new",
    ...(framework === "hono" ? [] : [`--framework ${framework}`]),
    ...(database === "postgres" ? ["--database postgres"] : []),
  ].join(" ");
  // Run as `npx @tessera/cli new`, the CLI has no @tessera/accounts (an optional peer) to read
  // the tables from: the project, which depends on it, then generates them from its own copy
  // once installed, as its README and the next steps say.
  const accounts = await accountsFor(target, database, command);
  const generateAccounts = `npx tessera generate accounts${database === "postgres" ? " --dialect postgres" : ""}`;
  /** The steps from inside the folder to a running app, as the README lists them. */
  const steps = ["npm install", ...(accounts.ok ? [] : [generateAccounts]), "npm start"];
  const registry = invocation.registry;
  const files: ProjectFile[] = [
    ["package.json", manifest(packageName(basename(target)), framework, database)],
    // Run from another registry than npm's (a local one, before the packages are released), the
    // project installs from it too: its registry, and nothing else (never a token).
    ...(registry === undefined ? [] : [[".npmrc", `registry=${registry}\n`] as const]),
    ["tsconfig.json", renderTemplate("new-tsconfig.json", {})],
    ["vitest.config.ts", renderTemplate("new-vitest.config.ts", {})],
    [".gitignore", renderTemplate("new-gitignore", {})],
    ["README.md", readme(packageName(basename(target)), framework, database, steps, registry)],
    ["src/main.ts", mainModule(framework)],
    ["src/app.ts", renderTemplate(`new-app-${framework}.ts`, { routesMarker: ROUTES_MARKER })],
    ["src/accounts.ts", renderTemplate("new-accounts.ts", {})],
    ["src/home-page.ts", renderTemplate("new-home-page.ts", {})],
    ["src/settings.ts", renderTemplate("new-settings.ts", {})],
    ["src/migrations.ts", renderTemplate("new-migrations.ts", { generateAccounts })],
    ["src/start-error.ts", renderTemplate("new-start-error.ts", {})],
    [
      "src/database.ts",
      database === "sqlite"
        ? renderTemplate("new-database-sqlite.ts", {})
        : renderTemplate("new-database-postgres.ts", {}),
    ],
    ["test/app.test.ts", appTest(framework, database)],
    ...(accounts.ok ? accounts.value : []),
  ];
  const written = applyFileChanges(target, { created: files }, invocation);
  if (!written.ok) return written;
  const next = [`cd ${shellWord(directory)}`, ...steps];
  return {
    ok: true,
    text: [
      written.text,
      "",
      "next:",
      ...next.map((step) => `  ${step}`),
      ...(database === "postgres" ? ["(with DATABASE_URL set to your PostgreSQL database)"] : []),
      ...(registry === undefined ? [] : [registryNote(registry)]),
    ].join("\n"),
    json: {
      ...written.json,
      directory: target,
      next,
      ...(registry === undefined ? {} : { registry }),
    },
  };
}

/** What the next steps say of the registry the project's `.npmrc` names. */
function registryNote(registry: string): string {
  return `(npm installs from ${registry}, which .npmrc names: the @tessera packages are not on npm yet; once they are, delete .npmrc)`;
}

/** `path` as a POSIX shell reads it as one word: quoted when it holds anything but safe characters. */
function shellWord(path: string): string {
  return /^[A-Za-z0-9._/@+-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

function refused(reason: string, hint: string): Outcome {
  return { ok: false, reason, hint };
}

/**
 * The folder's name as an npm package name: lower case, and any character npm does not take
 * in a name replaced by `-` (`My App` becomes `my-app`).
 */
export function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+/, "")
    .slice(0, 214);
  return name === "" ? "app" : name;
}

/** The project's package.json. */
function manifest(name: string, framework: Framework, database: Database): string {
  const parts = FRAMEWORKS[framework];
  const version = cliVersion();
  const tessera = (packages: readonly string[]) =>
    Object.fromEntries(packages.map((entry) => [`@tessera/${entry}`, version]));
  const npm = (packages: readonly (keyof typeof NPM_RANGES)[]) =>
    Object.fromEntries(packages.map((entry) => [entry, NPM_RANGES[entry]]));
  const sqlite = database === "sqlite";
  const sorted = (entries: Record<string, string>) =>
    Object.fromEntries(Object.entries(entries).sort(([a], [b]) => a.localeCompare(b)));
  const project = {
    name,
    version: "0.1.0",
    private: true,
    type: "module",
    scripts: { start: "tsx src/main.ts", test: "vitest run", typecheck: "tsc --noEmit" },
    engines: { node: ">=20.19" },
    dependencies: sorted({
      ...tessera(["accounts", "fields", "mail", "sql", ...parts.tessera]),
      ...tessera([sqlite ? "sqlite" : "postgres"]),
      ...npm([...parts.dependencies, sqlite ? "better-sqlite3" : "pg"]),
    }),
    devDependencies: sorted({
      ...tessera(["cli"]),
      ...npm(["typescript", "tsx", "vitest", "@types/node", ...parts.devDependencies]),
      ...npm([sqlite ? "@types/better-sqlite3" : "@types/pg"]),
    }),
  };
  return `${JSON.stringify(project, null, 2)}\n`;
}

function readme(
  name: string,
  framework: Framework,
  database: Database,
  steps: readonly string[],
  registry: string | undefined,
): string {
  const generated = steps.some((step) => step.startsWith("npx tessera generate accounts"));
  const accountsNote = generated
    ? "\n`tessera new` ran without `@tessera/accounts` (as `npx @tessera/cli` runs it), so the\naccount tables' migrations are generated from the copy `npm install` brings."
    : "";
  const registryNote =
    registry === undefined
      ? ""
      : `\n\`npm install\` takes the packages from ${registry}, the registry \`tessera new\` ran from, as\n\`.npmrc\` says: the \`@tessera\` packages are not on npm yet. Once they are, delete \`.npmrc\` to\ninstall from npm.`;
  const databaseNote =
    database === "sqlite"
      ? "The database is the SQLite file `data/app.db` (`DATABASE_PATH` names another)."
      : "The database is PostgreSQL: set `DATABASE_URL` (e.g.\n`postgres://user:password@127.0.0.1:5432/app`) before `npm start` and `npm test`; the\ntest signs up a new address at each run, so give it a database of its own.";
  return renderTemplate("new-README.md", {
    name,
    framework: FRAMEWORKS[framework].title,
    steps: steps.join("\n"),
    accountsNote,
    registryNote,
    databaseNote,
  });
}

/** src/main.ts: the settings, the database and the app, then the framework's way to listen. */
function mainModule(framework: Framework): string {
  return renderTemplate("new-main.ts", {
    serverImport: FRAMEWORKS[framework].serverImport,
    listen: renderTemplate(`new-listen-${framework}.ts`, {}).trimEnd(),
  });
}

/**
 * test/app.test.ts: the database's setup, the framework's client (a `request` function), then
 * the account tests every project shares.
 */
function appTest(framework: Framework, database: Database): string {
  // A block ends where the template's next line starts: its own last line break would double it.
  const values = {
    clientImport: FRAMEWORKS[framework].clientImport,
    client: renderTemplate(`new-client-${framework}.ts`, {}).trimEnd(),
    accountTests: renderTemplate("new-account-tests.ts", {}).trimEnd(),
  };
  return database === "sqlite"
    ? renderTemplate("new-app-sqlite.test.ts", values)
    : renderTemplate("new-app-postgres.test.ts", values);
}
