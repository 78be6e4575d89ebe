// `tessera new`: the command line, the refusals, and the project it writes — type-checked,
// started, and tested by its own test with this repository's tools. The project is written
// inside the repository (test/.generated-*), so its @tessera packages resolve to the workspace.
import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { organizationMigrations } from "@tessera/organizations/sql";
import { migrationSql } from "@tessera/sql";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { waitForLine } from "../../../examples/app/test/support/app-process.js";
import { nextSteps, readmeSteps } from "../../../scripts/check-guides/new-project-path.js";
import { createPostgresSchema } from "../../../test/support/postgres.js";
import { startProcessGroup } from "../../../test/support/process-group.js";
import { ROUTES_MARKER } from "../src/model-mount.js";
import { newProject } from "../src/new-project.js";
import { NPM_RANGES } from "../src/new-project-versions.js";
import { parseArguments } from "../src/node.js";
import { appMigration } from "./support/app-migration.js";
import { tessera } from "./support/tessera-process.js";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const repository = join(PACKAGE_DIR, "..", "..");
const bin = join(repository, "node_modules", ".bin");
const TSX = import.meta.resolve("tsx/esm");
const run = promisify(execFile);

let folder: string;
/** The environment that makes tsx resolve `@tessera/*` to this repository's sources. */
let fromSources: Record<string, string>;
/** The vitest config that does the same for a project's own test. */
let sourcesConfig: string;
beforeAll(() => {
  folder = mkdtempSync(join(PACKAGE_DIR, "test/.generated-new-"));
  // A fresh clone has no dist/ when the tests run: the projects' imports of @tessera packages
  // go to their TypeScript sources, as the repository's own tests do.
  const tsconfig = join(folder, "tsconfig.sources.json");
  writeFileSync(tsconfig, JSON.stringify({ extends: join(repository, "tsconfig.json") }));
  fromSources = { TSX_TSCONFIG_PATH: tsconfig };
  sourcesConfig = join(folder, "vitest.sources.config.ts");
  const packages = JSON.stringify(join(repository, "packages"));
  writeFileSync(
    sourcesConfig,
    `export default {
  resolve: {
    alias: [
      { find: /^@tessera\\/([^/]+)$/, replacement: ${packages} + "/$1/src/index.ts" },
      { find: /^@tessera\\/([^/]+)\\/(.+)$/, replacement: ${packages} + "/$1/src/$2.ts" },
    ],
  },
  test: { include: ["**/test/**/*.test.ts"] },
};
`,
  );
});

/**
 * A project's own test, run by vitest with the packages resolved to their sources; with
 * `projects`, the tests of those projects (folders in `root`) in one run.
 */
function ownTestOf(root: string, env: Record<string, string> = {}, projects: string[] = []) {
  return run(
    join(bin, "vitest"),
    [
      "run",
      "--reporter=json",
      "--config",
      sourcesConfig,
      "--root",
      root,
      ...projects.map((project) => `${project}/test/`),
    ],
    { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" },
  );
}
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * Starts a project's src/main.ts as `npm start` does (tsx), on a free port of 127.0.0.1, and
 * hands `use` its address; the process is stopped afterwards.
 */
async function whileStarted(project: string, use: (url: string) => Promise<void>) {
  const app = startProcessGroup(process.execPath, ["--import", TSX, "src/main.ts"], {
    cwd: project,
    env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", ...fromSources },
  });
  // Stopped when the test ends, failed or timed out too, not only when `use` returns.
  onTestFinished(() => app.stop());
  const [, url = ""] = await waitForLine(
    app.output,
    /listening on (http:\/\/127\.0\.0\.1:\d+)/,
    30_000,
  );
  await use(url);
  await app.stop();
}

describe("the command line of tessera new", () => {
  it("reads the folder, the framework and the database", () => {
    expect(parseArguments(["new", "my-app"])).toMatchObject({
      ok: true,
      value: { command: "new", directory: "my-app", pretend: false },
    });
    expect(
      parseArguments(["new", "my-app", "--framework", "hono", "--database", "postgres"]),
    ).toMatchObject({
      ok: true,
      value: { command: "new", directory: "my-app", framework: "hono", database: "postgres" },
    });
  });

  it("reads Express and Fastify, and refuses frameworks it does not know", () => {
    for (const framework of ["express", "fastify"]) {
      expect(parseArguments(["new", "my-app", "--framework", framework])).toMatchObject({
        ok: true,
        value: { command: "new", directory: "my-app", framework },
      });
    }
    expect(parseArguments(["new", "my-app", "--framework", "koa"])).toEqual({
      ok: false,
      json: false,
      reason: "unknown framework `koa`",
      hint: "write `--framework hono` (the default), `--framework express` or `--framework fastify`",
    });
  });

  it("refuses a database other than sqlite and postgres", () => {
    expect(parseArguments(["new", "my-app", "--database", "mysql"])).toEqual({
      ok: false,
      json: false,
      reason: "unknown database `mysql`",
      hint: "write `--database sqlite` (the default) or `--database postgres`",
    });
  });

  it("refuses a missing folder, a second one, and the generators' --dialect", () => {
    expect(parseArguments(["new"])).toMatchObject({
      ok: false,
      reason: "no folder given",
      hint: "write e.g. `tessera new my-app`",
    });
    expect(parseArguments(["new", "a", "b"])).toMatchObject({
      ok: false,
      reason: "unexpected `b`",
    });
    expect(parseArguments(["new", "a", "--dialect", "postgres"])).toMatchObject({ ok: false });
  });

  it("leaves --database a file or URL for migrate, and refuses it where neither takes it", () => {
    expect(parseArguments(["migrate", "--database", "data/other.db"])).toMatchObject({
      ok: true,
      value: { command: "migrate", database: "data/other.db" },
    });
    expect(parseArguments(["generate", "accounts", "--database", "sqlite"])).toMatchObject({
      ok: false,
      reason:
        "--database applies to `tessera migrate`, `tessera admin`, `tessera keys rotate` and `tessera new` only",
    });
    expect(parseArguments(["migrate", "--framework", "hono"])).toMatchObject({
      ok: false,
      reason: "--framework applies to `tessera new` only",
    });
  });
});

describe("tessera new refuses, writing nothing", () => {
  it("a folder that exists and is not empty", async () => {
    const taken = join(folder, "taken");
    mkdirSync(taken);
    writeFileSync(join(taken, "notes.txt"), "mine\n");
    const result = await tessera(["new", "taken"], folder);
    expect(result).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "error: `taken` exists and is not empty\nhint: choose a new folder name, or empty the folder first\n",
    });
    expect(readdirSync(taken)).toEqual(["notes.txt"]);
  });

  it("a path that is a file", async () => {
    writeFileSync(join(folder, "a-file"), "");
    const result = await tessera(["new", "a-file"], folder);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("`a-file` exists and is not a folder");
  });

  it("anything under --pretend, and says what it would write", async () => {
    const result = await tessera(["new", "pretended", "--pretend"], folder);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("would write package.json\n");
    expect(result.stdout).toContain("would write migrations/0003_tessera_users.sql\n");
    expect(existsSync(join(folder, "pretended"))).toBe(false);
  });
});

describe("tessera new run where @tessera/accounts cannot be loaded (npx @tessera/cli)", () => {
  const missing = async () => ({
    ok: false as const,
    reason: "this command needs @tessera/accounts, which the app has not installed",
    hint: "npm install @tessera/accounts",
  });
  /** The project `new` writes into `name` without @tessera/accounts, and its printed steps. */
  async function writtenWithoutAccounts(name: string, options: string[] = []) {
    const invocation = parseArguments(["new", name, ...options]);
    if (!invocation.ok) throw new Error(invocation.reason);
    const outcome = await newProject(invocation.value, folder, missing);
    if (!outcome.ok) throw new Error(outcome.reason);
    return { project: join(folder, name), next: outcome.json.next as string[] };
  }
  /** The commands of the README's Start section. */
  const startSteps = (project: string) =>
    /## Start\n\n```sh\n([^`]*)```/.exec(readFileSync(join(project, "README.md"), "utf8"))?.[1];

  it("lists the step that generates the account tables, in the next steps and the README alike", async () => {
    const { project, next } = await writtenWithoutAccounts("bare-pg-app", [
      "--database",
      "postgres",
    ]);
    expect(existsSync(join(project, "src/models/user.ts"))).toBe(false);
    expect(next).toEqual([
      "cd bare-pg-app",
      "npm install",
      "npx tessera generate accounts --dialect postgres",
      "npm start",
    ]);
    expect(startSteps(project)).toBe(`${next.slice(1).join("\n")}\n`);
  });

  it("says in one line, without a stack trace, what to run when migrations/ is missing; started after that step", async () => {
    const { project, next } = await writtenWithoutAccounts("bare-app");
    expect(startSteps(project)).toBe("npm install\nnpx tessera generate accounts\nnpm start\n");
    expect(next).toContain("npx tessera generate accounts");
    const started = await run(process.execPath, ["--import", TSX, "src/main.ts"], {
      cwd: project,
      env: { PATH: process.env.PATH ?? "", PORT: "0", ...fromSources },
      encoding: "utf8",
    }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(started).toMatchObject({
      code: 1,
      stderr:
        "Cannot start: there is no migrations/ folder: run `npx tessera generate accounts` to write the account tables' migrations\n",
    });

    // The README's step, with the @tessera/accounts this repository has installed.
    const generated = await tessera(["generate", "accounts"], project);
    expect(generated.stderr).toBe("");
    await whileStarted(project, async (url) => {
      expect((await fetch(`${url}/signup`)).status).toBe(200);
    });
  }, 40_000);
});

describe("tessera new run from another registry than npm's (npx --registry)", () => {
  it("writes an .npmrc naming it, and says so in the next steps and the README", async () => {
    const result = await tessera(["new", "local-app"], folder, {
      npm_config_registry: "http://127.0.0.1:4873",
    });
    expect(result.stderr).toBe("");
    const project = join(folder, "local-app");
    expect(readFileSync(join(project, ".npmrc"), "utf8")).toBe("registry=http://127.0.0.1:4873/\n");
    expect(result.stdout).toContain("wrote .npmrc\n");
    expect(result.stdout).toContain(
      "(npm installs from http://127.0.0.1:4873/, which .npmrc names: the @tessera packages are not on npm yet; once they are, delete .npmrc)",
    );
    const readme = readFileSync(join(project, "README.md"), "utf8");
    expect(readme).toContain("`npm install` takes the packages from http://127.0.0.1:4873/");
    expect(readme).toContain("delete `.npmrc`");
    // The guides check follows the same steps from both: the note is none of them.
    expect(nextSteps(result.stdout)).toEqual(["cd local-app", "npm install", "npm start"]);
    expect(readmeSteps(readme)).toEqual(["npm install", "npm start"]);
  });

  it("writes none run from npm's own registry, or with none named", async () => {
    for (const [name, env] of [
      ["npm-app", { npm_config_registry: "https://registry.npmjs.org/" }],
      ["plain-app", {}],
    ] as const) {
      const result = await tessera(["new", name, "--json"], folder, env);
      expect(JSON.parse(result.stdout)).not.toHaveProperty("registry");
      expect(existsSync(join(folder, name, ".npmrc")), name).toBe(false);
      expect(readFileSync(join(folder, name, "README.md"), "utf8")).not.toContain(".npmrc");
    }
  });
});

describe("a PostgreSQL project", () => {
  let project: string;
  let printed: Record<string, unknown>;
  beforeAll(async () => {
    // An empty folder is taken as a new one.
    mkdirSync(join(folder, "pg-app"));
    const result = await tessera(["new", "pg-app", "--database", "postgres", "--json"], folder);
    expect(result.stderr).toBe("");
    printed = JSON.parse(result.stdout);
    project = join(folder, "pg-app");
  });

  it("prints the files and the next steps as JSON", () => {
    expect(printed).toMatchObject({
      ok: true,
      directory: project,
      next: ["cd pg-app", "npm install", "npm start"],
    });
    expect(printed.written).toContain("src/database.ts");
    expect(printed).not.toHaveProperty("install");
  });

  it("depends on pg and @tessera/postgres, and writes PostgreSQL's SQL", () => {
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    expect(manifest.dependencies).toMatchObject({
      pg: NPM_RANGES.pg,
      "@tessera/postgres": "0.1.0",
    });
    expect(manifest.dependencies).not.toHaveProperty("better-sqlite3");
    expect(manifest.devDependencies).toHaveProperty("@types/pg");
    expect(readFileSync(join(project, "src/database.ts"), "utf8")).toContain("DATABASE_URL");
    const users = readFileSync(join(project, "migrations/0003_tessera_users.sql"), "utf8");
    expect(users).toContain("Generated by `tessera new --database postgres`");
    expect(users).toMatch(/BIGSERIAL|GENERATED|TIMESTAMPTZ/i);
  });

  it("passes its own test on a PostgreSQL database", async () => {
    const schema = await createPostgresSchema();
    try {
      const ownTest = await ownTestOf(project, { DATABASE_URL: schema.url });
      expect(JSON.parse(ownTest.stdout)).toMatchObject({ numPassedTests: 3, numFailedTests: 0 });
    } finally {
      await schema.drop();
    }
  }, 60_000);
});

describe("a SQLite project, as generated", () => {
  let project: string;
  let stdout: string;
  beforeAll(async () => {
    const result = await tessera(["new", "My App"], folder);
    expect(result.stderr).toBe("");
    stdout = result.stdout;
    project = join(folder, "My App");
  });

  it("prints what it wrote and the next steps", () => {
    expect(stdout).toContain("wrote package.json\n");
    expect(stdout).toContain("wrote src/models/user.ts\n");
    expect(stdout.endsWith("next:\n  cd 'My App'\n  npm install\n  npm start\n")).toBe(true);
    expect(readFileSync(join(project, "README.md"), "utf8")).toContain(
      "## Start\n\n```sh\nnpm install\nnpm start\n```\n\n`npm start` applies",
    );
  });

  it("has a package.json named after the folder, at this repository's versions", () => {
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    const cli = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8"));
    expect(manifest).toMatchObject({
      name: "my-app",
      private: true,
      type: "module",
      engines: { node: ">=20.19" },
      scripts: { start: "tsx src/main.ts", test: "vitest run", typecheck: "tsc --noEmit" },
    });
    for (const [name, version] of Object.entries({
      ...manifest.dependencies,
      ...manifest.devDependencies,
    })) {
      if (name.startsWith("@tessera/")) expect(version, name).toBe(cli.version);
    }
    expect(manifest.dependencies["better-sqlite3"]).toMatch(/^\^12\./);
    expect(Object.keys(manifest.devDependencies).sort()).toEqual([
      "@tessera/cli",
      "@types/better-sqlite3",
      "@types/node",
      "tsx",
      "typescript",
      "vitest",
    ]);
    expect(readFileSync(join(project, ".gitignore"), "utf8")).toBe("node_modules/\ndata/\n");
    expect(existsSync(join(project, ".npmrc"))).toBe(false);
  });

  it("starts on PORT and HOST, keeps a generated secret in data/, and serves the pages", async () => {
    await whileStarted(project, async (url) => {
      const signUp = await fetch(`${url}/signup`);
      expect(signUp.status).toBe(200);
      expect(signUp.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await (await fetch(`${url}/`)).text()).toContain('href="/login"');
      expect(readFileSync(join(project, "data/secret_key_base"), "utf8").trim().length).toBe(96);
      expect(existsSync(join(project, "data/app.db"))).toBe(true);
    });
  }, 40_000);

  it("stops at the start, naming the setting, when SECRET_KEY_BASE is too short", async () => {
    const started = await run(process.execPath, ["--import", TSX, "src/main.ts"], {
      cwd: project,
      env: { PATH: process.env.PATH ?? "", PORT: "0", SECRET_KEY_BASE: "short", ...fromSources },
      encoding: "utf8",
    }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(started.code).toBe(1);
    expect(started.stderr).toBe(
      "Cannot start: SECRET_KEY_BASE must be at least 32 characters (try: openssl rand -hex 64)\n",
    );
  }, 30_000);

  it("takes a generated model (checked with the others below)", async () => {
    const generated = await tessera(["generate", "model", "note", "title:string"], project);
    expect(generated.stderr).toBe("");
    expect(generated.stdout).toContain(`wrote migrations/${appMigration("create_notes")}.sql`);
    expect(existsSync(join(project, "src/models/note.ts"))).toBe(true);
  });
});

describe.each(["express", "fastify"] as const)("a project with --framework %s", (framework) => {
  let project: string;
  beforeAll(async () => {
    // Both databases: the PostgreSQL one is type-checked with the others below.
    const written = await Promise.all([
      tessera(["new", `${framework}-app`, "--framework", framework], folder),
      tessera(
        ["new", `${framework}-pg-app`, "--framework", framework, "--database", "postgres"],
        folder,
      ),
    ]);
    for (const result of written) expect(result.stderr).toBe("");
    project = join(folder, `${framework}-app`);
  });

  it(`depends on ${framework} and @tessera/node, not on Hono`, () => {
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    expect(manifest.dependencies).toMatchObject({
      [framework]: NPM_RANGES[framework],
      "@tessera/node": "0.1.0",
      "@tessera/accounts": "0.1.0",
      "better-sqlite3": NPM_RANGES["better-sqlite3"],
    });
    expect(Object.keys(manifest.dependencies)).not.toContain("hono");
    expect(Object.keys(manifest.dependencies)).not.toContain("@tessera/hono");
    expect(Object.keys(manifest.devDependencies).includes("@types/express")).toBe(
      framework === "express",
    );
    expect(readFileSync(join(project, "README.md"), "utf8")).toContain(
      `A ${framework === "express" ? "Express" : "Fastify"} app with sign-up`,
    );
    const postgres = JSON.parse(
      readFileSync(join(folder, `${framework}-pg-app/package.json`), "utf8"),
    );
    expect(postgres.dependencies).toMatchObject({
      [framework]: NPM_RANGES[framework],
      pg: NPM_RANGES.pg,
    });
  });

  it("starts on PORT and HOST and serves the pages and its own /me", async () => {
    await whileStarted(project, async (url) => {
      const signUp = await fetch(`${url}/signup`);
      expect(signUp.status).toBe(200);
      expect(signUp.headers.get("x-content-type-options")).toBe("nosniff");
      expect(signUp.headers.get("x-powered-by")).toBeNull();
      expect(await (await fetch(`${url}/`)).text()).toContain('href="/login"');
      expect((await fetch(`${url}/me`)).status).toBe(401);
    });
  }, 40_000);

  it("takes a generated model (checked with the others below)", async () => {
    const generated = await tessera(["generate", "model", "note", "title:string"], project);
    expect(generated.stderr).toBe("");
    expect(generated.stdout).toContain(`wrote migrations/${appMigration("create_notes")}.sql`);
    expect(existsSync(join(project, "src/models/note.ts"))).toBe(true);
  });
});

/** The lines `generate model` printed after `head`, up to the next `mount:` line. */
function printedAfter(stdout: string, head: string): string[] {
  const lines = stdout.split("\n");
  const start = lines.findIndex((line) => line.startsWith(head));
  const end = lines.findIndex((line, index) => index > start && line.startsWith("mount:"));
  return lines.slice(start + 1, end);
}

// The models generated above, served: mounted by --mount (the Hono and Express projects) or by
// the printed lines pasted (Fastify); every project written type-checks them below.
describe("a generated model's routes", () => {
  it("are mounted by --mount once, and served", async () => {
    const project = join(folder, "My App");
    const mounted = await tessera(["generate", "model", "note", "--mount"], project);
    expect(mounted.stderr).toBe("");
    expect(mounted.stdout).toContain("updated src/app.ts\n");
    expect(mounted.stdout).toContain(
      "install: npm install @tessera/bearer @tessera/http @tessera/records (the new code imports them)",
    );
    const app = readFileSync(join(project, "src/app.ts"), "utf8");
    expect(app).toContain(`      model: noteModel,\n`);
    const again = await tessera(["generate", "model", "note", "--mount", "--json"], project);
    expect(JSON.parse(again.stdout)).toEqual({
      ok: true,
      written: [],
      notes: ["src/app.ts uses noteModel already: it is left as it is"],
    });
    expect(readFileSync(join(project, "src/app.ts"), "utf8")).toBe(app);
    await whileStarted(project, async (url) => {
      expect((await fetch(`${url}/api/notes`)).status).toBe(401);
      const page = await fetch(`${url}/notes`, { redirect: "manual" });
      expect(page.status).toBe(303);
      expect(page.headers.get("location")).toMatch(/^\/login/);
    });
  }, 40_000);

  it("are mounted with a storage for files, and for an organization's model its scope", async () => {
    const files = await tessera(
      ["generate", "model", "photo", "title:string", "image:attachment?", "--mount"],
      join(folder, "express-app"),
    );
    expect(files.stderr).toBe("");
    expect(readFileSync(join(folder, "express-app/src/app.ts"), "utf8")).toContain(
      'storage: new FilesystemObjectStorage("data/uploads"),',
    );
    const project = join(folder, "express-pg-app");
    const [migration] = organizationMigrations;
    writeFileSync(
      join(project, `migrations/${appMigration("tessera_organizations")}.sql`),
      migrationSql(migration!.sql, "postgres"),
    );
    const organization = await tessera(
      ["generate", "model", "project", "name:string", "--owner", "organization", "--mount"],
      project,
    );
    expect(organization.stderr).toBe("");
    expect(readFileSync(join(project, "src/app.ts"), "utf8")).toContain(
      "scope: organizationRecords({ organizations: new SqlOrganizationStore(options.database) }),",
    );
  });

  it("are printed as lines that go into the project as they are", async () => {
    const project = join(folder, "fastify-app");
    const printed = await tessera(["generate", "model", "label", "name:string"], project);
    expect(printed.stderr).toBe("");
    const imports = printedAfter(printed.stdout, "mount: to serve it, add these imports");
    const routes = printedAfter(printed.stdout, "mount: and these lines");
    expect(imports.at(-1)).toBe('  import { labelModel } from "./models/label.js";');
    expect(routes[0]).toBe("    ...jsonRecordRoutes({");
    const path = join(project, "src/app.ts");
    const app = readFileSync(path, "utf8");
    writeFileSync(
      path,
      `${imports.map((line) => line.trim()).join("\n")}\n${app.replace(
        `    ${ROUTES_MARKER}`,
        `${routes.join("\n")}\n    ${ROUTES_MARKER}`,
      )}`,
    );
    // As a user's editor would: the pasted imports sorted (Biome checks them with the others below).
    await run(join(bin, "biome"), ["check", "--write", path], { cwd: repository });
  });
});

// After the others, so one type-check covers every project as written, and the models generated
// in the SQLite ones; one vitest run takes the SQLite projects' own tests.
describe("every project written", () => {
  it("type-checks strictly, passes Biome, and (SQLite) passes its own test", async () => {
    const sqliteProjects = ["My App", "express-app", "fastify-app"];
    const projects = [
      "My App",
      "pg-app",
      "express-app",
      "express-pg-app",
      "fastify-app",
      "fastify-pg-app",
    ].map((name) => join(folder, name));
    // One program over all of them, under the compiler options they were written with.
    // The packages' types from their sources (a fresh clone has no dist/ yet).
    const { paths } = JSON.parse(readFileSync(join(repository, "tsconfig.json"), "utf8"))
      .compilerOptions as { paths: Record<string, string[]> };
    writeFileSync(
      join(folder, "tsconfig.json"),
      JSON.stringify({
        extends: "./My App/tsconfig.json",
        compilerOptions: { baseUrl: repository, paths },
        include: projects.flatMap((path) => [`${path}/src`, `${path}/test`]),
      }),
    );
    const [typecheck, ownTests] = await Promise.all([
      run(join(bin, "tsc"), ["-p", folder, "--noEmit", "--strict"], { encoding: "utf8" }),
      ownTestOf(folder, {}, sqliteProjects),
      run(
        join(bin, "biome"),
        [
          "check",
          ...projects.flatMap((path) =>
            ["src", "test", "vitest.config.ts"].map((file) => join(path, file)),
          ),
        ],
        { cwd: repository, encoding: "utf8" },
      ),
    ]);
    expect(typecheck.stdout).toBe("");
    const report = JSON.parse(ownTests.stdout) as {
      testResults: { name: string; assertionResults: { status: string }[] }[];
    };
    const passed = Object.fromEntries(
      report.testResults.map(({ name, assertionResults }) => [
        name.slice(folder.length + 1),
        assertionResults.map(({ status }) => status),
      ]),
    );
    expect(passed).toEqual(
      Object.fromEntries(
        sqliteProjects.map((name) => [`${name}/test/app.test.ts`, ["passed", "passed", "passed"]]),
      ),
    );
  }, 90_000);
});

describe("the versions a project depends on", () => {
  it("are the ranges this repository's packages and examples use", () => {
    const manifests = [
      "package.json",
      "examples/hono/package.json",
      "examples/express/package.json",
      "examples/fastify/package.json",
      "packages/postgres/package.json",
    ]
      .map((path) => JSON.parse(readFileSync(join(repository, path), "utf8")))
      .concat(JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")));
    const used = new Set(
      manifests.flatMap((manifest) =>
        ["dependencies", "devDependencies"].flatMap((field) =>
          Object.entries(manifest[field] ?? {}).map(([name, range]) => `${name}@${range}`),
        ),
      ),
    );
    for (const [name, range] of Object.entries(NPM_RANGES)) {
      expect(used, `${name}@${range}`).toContain(`${name}@${range}`);
    }
  });
});
