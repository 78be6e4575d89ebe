import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { registryFlag } from "./install-registry.js";

// The generators read the account tables, the webhook event log and the job table from the
// packages that own them, `tessera admin` the account store and audit log, and `tessera keys
// rotate` the signing key store; `tessera generate client` reads OpenAPI with openapi-typescript.
// They are optional peers of this package, loaded when a command needs one: `tessera generate
// model` needs none of them, and the app gets each at the version it installed, not a copy the
// CLI carries.
const ENTRIES = {
  "@tessera/accounts": () => import("@tessera/accounts"),
  "@tessera/accounts/sql": () => import("@tessera/accounts/sql"),
  "@tessera/bearer": () => import("@tessera/bearer"),
  "@tessera/bearer/sql": () => import("@tessera/bearer/sql"),
  "@tessera/jobs": () => import("@tessera/jobs"),
  "@tessera/jobs/sql": () => import("@tessera/jobs/sql"),
  "@tessera/webhooks/sql": () => import("@tessera/webhooks/sql"),
  "openapi-typescript": () => import("openapi-typescript"),
};

/** An entry of another Tessera package that a generator reads. */
export type AppPackageEntry = keyof typeof ENTRIES;

/** An entry's module, or why it could not be loaded and what to run. */
export type AppPackageLoad<E extends AppPackageEntry> =
  | { readonly ok: true; readonly value: Awaited<ReturnType<(typeof ENTRIES)[E]>> }
  | { readonly ok: false; readonly reason: string; readonly hint: string };

const NOT_FOUND = new Set([
  "MODULE_NOT_FOUND",
  "ERR_MODULE_NOT_FOUND",
  "ERR_PACKAGE_PATH_NOT_EXPORTED",
]);

function isNotFound(error: unknown): boolean {
  return NOT_FOUND.has((error as { code?: string | undefined } | null)?.code ?? "");
}

/** `@tessera/accounts` of `@tessera/accounts/sql`; `hono` of `hono/jsx`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

/** Where {@link loadAppPackage} looks besides the app, and what its install line names. */
export interface AppPackageOptions {
  /** The registry the CLI was run from, when not npm's: the install line names it. */
  readonly registry?: string | undefined;
  /** The entry as this package reaches it (default: its own import). */
  readonly reachable?: (() => Promise<unknown>) | undefined;
}

/**
 * `entry` as the app in `root` installed it (found from the app's folder, so under pnpm's strict
 * layout and from an `npx` cache too), else as this package can reach it (`reachable`: a
 * workspace, a hoisted install), else a refusal naming the install command.
 */
export async function loadAppPackage<E extends AppPackageEntry>(
  root: string,
  entry: E,
  { registry, reachable = ENTRIES[entry] }: AppPackageOptions = {},
): Promise<AppPackageLoad<E>> {
  try {
    const path = createRequire(join(root, "package.json")).resolve(entry);
    const value: unknown = await import(pathToFileURL(path).href);
    return { ok: true, value } as AppPackageLoad<E>;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  try {
    const value: unknown = await reachable();
    return { ok: true, value } as AppPackageLoad<E>;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const name = packageNameOf(entry);
  return {
    ok: false,
    reason: `this command needs ${name}, which the app has not installed`,
    hint: installLine(root, [name], registry),
  };
}

/** How the app in `root` adds a package: its lock file tells its package manager. */
export function installCommand(root: string): string {
  if (existsSync(join(root, "pnpm-lock.yaml"))) return "pnpm add";
  if (existsSync(join(root, "yarn.lock"))) return "yarn add";
  if (existsSync(join(root, "bun.lock")) || existsSync(join(root, "bun.lockb"))) return "bun add";
  return "npm install";
}

/**
 * The command that installs `packages` in the app in `root` (`npm install a b`, or its package
 * manager's), ending with `--registry <url>` when the CLI was run from another registry than
 * npm's; with no packages, the command that installs what package.json lists (`npm install`).
 */
export function installLine(
  root: string,
  packages: readonly string[],
  registry: string | undefined,
): string {
  const command =
    packages.length === 0
      ? `${installCommand(root).split(" ")[0]} install`
      : `${installCommand(root)} ${packages.join(" ")}`;
  return `${command}${registryFlag(registry)}`;
}

const IMPORT = /^\s*(?:import|export)\b[^"']*?\bfrom\s*["']([^"']+)["']/gm;

/**
 * The packages `files` import (bare specifiers only, `node:` left out) that the app's
 * package.json does not list, sorted; none when the app has no package.json to tell.
 */
export function missingPackages(
  root: string,
  files: ReadonlyArray<readonly [path: string, content: string]>,
): string[] {
  const manifestPath = join(root, "package.json");
  if (!existsSync(manifestPath)) return [];
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown>;
  const listed = new Set<string>();
  for (const field of [
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
  ]) {
    const entries = manifest[field];
    if (entries && typeof entries === "object")
      for (const name of Object.keys(entries)) listed.add(name);
  }
  const imported = new Set<string>();
  for (const [, content] of files) {
    for (const [, specifier = ""] of content.matchAll(IMPORT)) {
      if (specifier.startsWith(".") || specifier.startsWith("node:") || specifier.startsWith("/"))
        continue;
      imported.add(packageNameOf(specifier));
    }
  }
  return [...imported].filter((name) => !listed.has(name)).sort();
}
