// The packages the generators read from the app (its own installed copy first), and the install
// line every generator ends with for the packages the new code imports (or, with --install, the
// package.json rows it adds instead).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { loadAppPackage, missingPackages } from "../src/app-packages.js";
import { installRegistry } from "../src/install-registry.js";
import { NPM_RANGES } from "../src/new-project-versions.js";
import { packageAdditions } from "../src/package-additions.js";
import { tessera } from "./support/tessera-process.js";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const apps: string[] = [];
afterEach(() => {
  for (const app of apps.splice(0)) rmSync(app, { recursive: true, force: true });
});

/** An empty app folder outside the repository, with `manifest` as its package.json. */
function newApp(manifest?: Record<string, unknown>): string {
  const app = mkdtempSync(join(tmpdir(), "tessera-cli-app-"));
  apps.push(app);
  if (manifest) writeFileSync(join(app, "package.json"), JSON.stringify(manifest));
  return app;
}

/** A stand-in `@tessera/accounts` installed in the app, whose one migration names itself. */
function installAccounts(app: string): void {
  const folder = join(app, "node_modules", "@tessera", "accounts");
  mkdirSync(join(folder, "dist"), { recursive: true });
  writeFileSync(
    join(folder, "package.json"),
    JSON.stringify({
      name: "@tessera/accounts",
      type: "module",
      exports: { "./sql": { default: "./dist/sql.js" } },
    }),
  );
  writeFileSync(
    join(folder, "dist", "sql.js"),
    `export const accountMigrations = [{ id: "0101_apps_own_users", sql: "CREATE TABLE apps_own_users (id INTEGER PRIMARY KEY);" }];\n`,
  );
}

describe("generators reading other packages", () => {
  it("read the app's own installed copy first", async () => {
    const app = newApp({ dependencies: { "@tessera/accounts": "*", "@tessera/fields": "*" } });
    installAccounts(app);
    const run = await tessera(["generate", "accounts"], app);
    expect(run.status).toBe(0);
    expect(readdirSync(join(app, "migrations"))).toEqual(["0001_apps_own_users.sql"]);
    expect(readFileSync(join(app, "migrations", "0001_apps_own_users.sql"), "utf8")).toContain(
      "CREATE TABLE apps_own_users",
    );
  });

  it("fall back to the copy the CLI can reach (a workspace, a hoisted install)", async () => {
    const app = newApp({ dependencies: { "@tessera/fields": "*" } });
    const run = await tessera(["generate", "accounts"], app);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("tessera_users.sql");
  });

  it("refuse with the install command when neither the app nor the CLI has the package", async () => {
    const app = newApp({});
    const missing = Object.assign(new Error("Cannot find package"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const load = await loadAppPackage(app, "@tessera/accounts/sql", {
      reachable: () => Promise.reject(missing),
    });
    expect(load).toEqual({
      ok: false,
      reason: "this command needs @tessera/accounts, which the app has not installed",
      hint: "npm install @tessera/accounts",
    });
    writeFileSync(join(app, "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n");
    const withPnpm = await loadAppPackage(app, "@tessera/jobs", {
      reachable: () => Promise.reject(missing),
    });
    expect(withPnpm).toMatchObject({ ok: false, hint: "pnpm add @tessera/jobs" });
  });

  it("pass on any other failure to load a package", async () => {
    const broken = new SyntaxError("Unexpected token");
    await expect(
      loadAppPackage(newApp({}), "@tessera/jobs", { reachable: () => Promise.reject(broken) }),
    ).rejects.toBe(broken);
  });
});

describe("the install line", () => {
  it("names the packages the new code imports that package.json does not list", async () => {
    const app = newApp({ dependencies: { hono: "^4" }, devDependencies: {} });
    const run = await tessera(["generate", "model", "note", "title:string", "--no-owner"], app);
    expect(run.status).toBe(0);
    expect(run.stdout.trim().split("\n").at(-1)).toBe(
      "install: npm install @tessera/fields (the new code imports them)",
    );
    const json = await tessera(
      ["generate", "model", "label", "name:string", "--no-owner", "--json"],
      app,
    );
    expect(JSON.parse(json.stdout).install).toEqual(["@tessera/fields"]);
  });

  it("says nothing once the app lists them, in any dependency field", async () => {
    const app = newApp({ devDependencies: { "@tessera/fields": "0.1.0" } });
    const run = await tessera(["generate", "model", "note", "title:string", "--no-owner"], app);
    expect(run.stdout).not.toContain("install:");
    const json = await tessera(
      ["generate", "model", "label", "name:string", "--no-owner", "--json"],
      app,
    );
    expect(JSON.parse(json.stdout)).not.toHaveProperty("install");
  });

  it("uses the app's package manager, from its lock file", async () => {
    const app = newApp({});
    writeFileSync(join(app, "yarn.lock"), "");
    const run = await tessera(["generate", "model", "note", "title:string", "--no-owner"], app);
    expect(run.stdout).toContain("install: yarn add @tessera/fields");
  });

  it("reads bare specifiers only, each package once, scoped names whole", () => {
    const app = newApp({ dependencies: { hono: "*" } });
    const files = [
      [
        "a.ts",
        `import { x } from "@tessera/http";\nimport type { Y } from "@tessera/webhooks/sql";\nimport { z } from "./local.js";\nimport { readFileSync } from "node:fs";\nimport { Hono } from "hono";\nexport { w } from "@tessera/http";\n`,
      ],
    ] as const;
    expect(missingPackages(app, files)).toEqual(["@tessera/http", "@tessera/webhooks"]);
    expect(missingPackages(join(app, "no-such-folder"), files)).toEqual([]);
  });
});

describe("--install", () => {
  const version = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")).version;
  const manifestOf = (app: string) => readFileSync(join(app, "package.json"), "utf8");

  it("adds the packages to package.json at the CLI's version, the tests' ones as dev, and installs nothing", async () => {
    const app = newApp();
    // Four spaces, as some apps write it: kept.
    writeFileSync(
      join(app, "package.json"),
      `${JSON.stringify({ name: "mine", dependencies: { zod: "^4", hono: "^4" } }, null, 4)}\n`,
    );
    const run = await tessera(["generate", "webhook", "orders", "--install"], app);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      `added @tessera/http ${version} and @tessera/webhooks ${version} to package.json's dependencies\n` +
        `added @tessera/signer ${version} and vitest ${NPM_RANGES.vitest} to package.json's devDependencies\n` +
        "next: npm install (nothing is installed yet)\n",
    );
    expect(run.stdout).not.toContain("install: ");
    expect(manifestOf(app)).toBe(
      `${JSON.stringify(
        {
          name: "mine",
          dependencies: {
            "@tessera/http": version,
            "@tessera/webhooks": version,
            hono: "^4",
            zod: "^4",
          },
          devDependencies: { "@tessera/signer": version, vitest: NPM_RANGES.vitest },
        },
        null,
        4,
      )}\n`,
    );
    expect(readdirSync(app)).not.toContain("node_modules");
    // Listed now: the next generator has nothing to add.
    const again = await tessera(["generate", "webhook", "refunds", "--install", "--json"], app);
    expect(JSON.parse(again.stdout)).not.toHaveProperty("added");
  });

  it("says what it would add under --pretend, in JSON too, and changes nothing", async () => {
    const app = newApp({ name: "mine" });
    const before = manifestOf(app);
    const run = await tessera(
      ["generate", "model", "note", "title:string", "--no-owner", "--install", "--pretend"],
      app,
    );
    expect(run.stdout).toContain(
      `would add @tessera/fields ${version} to package.json's dependencies\n`,
    );
    const json = await tessera(
      [
        "generate",
        "model",
        "note",
        "title:string",
        "--no-owner",
        "--install",
        "--pretend",
        "--json",
      ],
      app,
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      added: { dependencies: { "@tessera/fields": version }, devDependencies: {} },
    });
    expect(manifestOf(app)).toBe(before);
  });

  it("names the app's package manager for the next step", async () => {
    const app = newApp({});
    writeFileSync(join(app, "pnpm-lock.yaml"), "");
    const run = await tessera(
      ["generate", "model", "note", "title:string", "--no-owner", "--install"],
      app,
    );
    expect(run.stdout).toContain("next: pnpm install (nothing is installed yet)");
  });

  it("leaves a package it has no version for to the install line", () => {
    const app = newApp({});
    const files = [
      ["src/a.ts", `import { x } from "@tessera/http";\nimport leftPad from "left-pad";\n`],
      ["test/a.test.ts", `import { it } from "vitest";\nimport { y } from "@tessera/http";\n`],
    ] as const;
    expect(packageAdditions(app, files)).toEqual({
      additions: {
        dependencies: { "@tessera/http": version },
        devDependencies: { vitest: NPM_RANGES.vitest },
      },
      unknown: ["left-pad"],
    });
  });

  it("is refused by the commands that write no code", async () => {
    const app = newApp({});
    const refused = await tessera(["new", "x", "--install"], app);
    expect(refused.stderr).toBe(
      "error: --install applies to the generators only\nhint: `tessera new` lists every package the project needs in its package.json already\n",
    );
    expect((await tessera(["migrate", "--install"], app)).stderr).toContain(
      "error: --install applies to the generators only",
    );
  });
});

describe("run from another registry than npm's (npx --registry)", () => {
  const LOCAL = "http://127.0.0.1:4873/";
  const fromLocal = { npm_config_registry: "http://127.0.0.1:4873" };

  it("reads the registry npm names to the command, without credentials, and not npm's own", () => {
    expect(installRegistry(fromLocal)).toBe(LOCAL);
    expect(installRegistry({ NPM_CONFIG_REGISTRY: "https://npm.example/api/npm/" })).toBe(
      "https://npm.example/api/npm/",
    );
    expect(installRegistry({ npm_config_registry: "https://ada:s3cret@npm.example/" })).toBe(
      "https://npm.example/",
    );
    for (const npm of [
      undefined,
      "",
      "https://registry.npmjs.org/",
      "https://registry.npmjs.org",
      "https://registry.yarnpkg.com",
      "not a url",
      "file:///tmp/registry",
    ]) {
      expect(installRegistry({ npm_config_registry: npm }), String(npm)).toBeUndefined();
    }
  });

  it("names it in the install line and in --install's next step", async () => {
    const app = newApp({});
    const run = await tessera(
      ["generate", "model", "note", "title:string", "--no-owner"],
      app,
      fromLocal,
    );
    expect(run.stdout.trim().split("\n").at(-1)).toBe(
      `install: npm install @tessera/fields --registry ${LOCAL} (the new code imports them)`,
    );
    const added = await tessera(
      ["generate", "model", "label", "name:string", "--no-owner", "--install"],
      app,
      fromLocal,
    );
    expect(added.stdout).toContain(
      `next: npm install --registry ${LOCAL} (nothing is installed yet)`,
    );
    const npm = await tessera(["generate", "model", "tag", "name:string", "--no-owner"], app, {
      npm_config_registry: "https://registry.npmjs.org/",
    });
    expect(npm.stdout).not.toContain("--registry");
  });

  it("names it in the refusal of a package the app has not installed", async () => {
    const missing = Object.assign(new Error("Cannot find package"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const load = await loadAppPackage(newApp({}), "@tessera/webhooks/sql", {
      registry: LOCAL,
      reachable: () => Promise.reject(missing),
    });
    expect(load).toMatchObject({
      ok: false,
      hint: `npm install @tessera/webhooks --registry ${LOCAL}`,
    });
  });
});
