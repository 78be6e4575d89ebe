import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** What {@link release} is asked to do. */
export interface ReleaseOptions {
  /** The repository to release: its `.changeset` folder and workspace packages. */
  readonly root: string;
  /** The registry to publish to (`https://registry.npmjs.org/`, or a local one). */
  readonly registry: string;
  /** The token to publish with; without it, npm's own login for that registry. */
  readonly token?: string | undefined;
  /** Builds between versioning and publishing; default true. */
  readonly build?: boolean | undefined;
}

// The changesets command of this repository's install, whatever `root` is (a test's copy).
const CHANGESET = resolve(import.meta.dirname, "..", "..", "node_modules", ".bin", "changeset");

/**
 * Releases the packages: `changeset version` turns the pending changesets into versions and
 * changelog entries, `npm run build` builds what will be published, and `changeset publish`
 * publishes every package whose version the registry does not have yet, tagging each release
 * `<name>@<version>` (the tags `npm run check:changesets` compares with). npm's configuration
 * is a file of its own for the run, naming only the registry (and the token when given), so a
 * release never goes where the user's `.npmrc` points by accident.
 */
export async function release(options: ReleaseOptions): Promise<void> {
  const url = new URL(options.registry);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TypeError(`--registry must be an http(s) URL, not ${options.registry}`);
  }
  // Asynchronous: the registry may be served by this very process (a local one, in tests).
  const run = (command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(command, args, { cwd: options.root, stdio: "inherit", env });
      child.once("error", reject);
      child.once("close", (code) =>
        code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited ${code}`)),
      );
    });
  await run(CHANGESET, ["version"]);
  if (options.build ?? true) await run("npm", ["run", "build"]);
  const folder = mkdtempSync(join(tmpdir(), "tessera-release-"));
  try {
    const npmrc = join(folder, "npmrc");
    const lines = [`registry=${url.href}`];
    if (options.token) lines.push(`//${url.host}${url.pathname}:_authToken=${options.token}`);
    writeFileSync(npmrc, `${lines.join("\n")}\n`, { mode: 0o600 });
    await run(CHANGESET, ["publish"], {
      ...process.env,
      npm_config_userconfig: npmrc,
      npm_config_registry: url.href,
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
