import { tmpdir } from "node:os";
import { type Manifest, workspacePackages } from "../check-packages/workspace-packages.js";
import { startLocalRegistry } from "../registry/local-registry.js";
import { installAndImport } from "./install-released.js";
import { release } from "./release.js";
import { copyRepository } from "./repository-copy.js";

/** What {@link dryRunRelease} is asked to do. */
export interface DryRunOptions {
  /** The repository whose next release is tried: it is copied, never changed. */
  readonly root: string;
  /** Builds in the copy between versioning and publishing (default true); else `dist/` is copied. */
  readonly build?: boolean | undefined;
  /** Where the temporary folders go; default the system's. */
  readonly temp?: string | undefined;
  /** Stops at the next step (the temporary folders and the registry are still removed). */
  readonly signal?: AbortSignal | undefined;
  /** Told what the dry run is doing; default silent. */
  readonly log?: ((line: string) => void) | undefined;
}

/** One package of a dry run: its released version, and how far it got. */
export interface DryRunPackage {
  readonly name: string;
  readonly version: string;
  /** The local registry has this version. */
  readonly published: boolean;
  /** Every `exports` entry loaded with Node from a fresh install; undefined when not tried. */
  readonly imported: boolean | undefined;
  /** Why it was not published or imported. */
  readonly failure?: string | undefined;
}

/** The outcome of a dry run. */
export interface DryRunReport {
  /** The local registry it published to (stopped by the time this is returned). */
  readonly registry: string;
  /** Every public workspace package, at the version the release gave it. */
  readonly packages: readonly DryRunPackage[];
  /** Why the release itself failed (versioning, build or publish); undefined when it did not. */
  readonly releaseFailure: string | undefined;
  /** True when the release ran and every package was published and imported. */
  readonly ok: boolean;
}

/** Whether the registry at `registry` has `name` at `version`. */
async function hasVersion(registry: string, name: string, version: string): Promise<boolean> {
  const response = await fetch(new URL(name.replace("/", "%2f"), `${registry}/`));
  if (!response.ok) return false;
  const document = (await response.json()) as { versions?: Record<string, unknown> };
  return document.versions?.[version] !== undefined;
}

/**
 * The next release, tried without touching anything: starts a local registry on a free port,
 * copies `root` (see {@link copyRepository}), runs {@link release} in the copy into that
 * registry (the pending changesets versioned, built unless `build` is false, published,
 * tagged, all in the copy), then installs every released package at its version into a fresh
 * npm project from that registry and imports each of its entries with Node. The copy, the
 * project and the registry are removed before it resolves, whatever happened.
 */
export async function dryRunRelease(options: DryRunOptions): Promise<DryRunReport> {
  const temp = options.temp ?? tmpdir();
  const build = options.build ?? true;
  const log = options.log ?? (() => {});
  const copy = copyRepository(options.root, { temp, dist: !build });
  try {
    log(`Copied the repository into ${copy.root}; nothing in ${options.root} changes.`);
    const registry = await startLocalRegistry(0);
    try {
      log(`Releasing the copy into a local registry at ${registry.url}.`);
      options.signal?.throwIfAborted();
      let releaseFailure: string | undefined;
      try {
        await release({ root: copy.root, registry: registry.url, token: "local", build });
      } catch (error) {
        options.signal?.throwIfAborted();
        releaseFailure = (error as Error).message;
      }
      const packages = workspacePackages(copy.root).filter(
        (pkg) => !(pkg.manifest as Manifest & { private?: boolean }).private,
      );
      const published = await Promise.all(
        packages.map((pkg) => hasVersion(registry.url, pkg.manifest.name, pkg.manifest.version)),
      );
      const toInstall = packages.filter((_, index) => published[index]);
      options.signal?.throwIfAborted();
      log(
        `${toInstall.length} of ${packages.length} packages are in the registry; installing them into a fresh project.`,
      );
      const failures =
        toInstall.length > 0
          ? await installAndImport(registry.url, toInstall, temp, log)
          : new Map<string, string>();
      const rows = packages.map((pkg, index): DryRunPackage => {
        const name = pkg.manifest.name;
        if (!published[index]) {
          return {
            name,
            version: pkg.manifest.version,
            published: false,
            imported: undefined,
            failure: "not in the registry after the release",
          };
        }
        const failure = failures.get(name);
        return {
          name,
          version: pkg.manifest.version,
          published: true,
          imported: !failure,
          failure,
        };
      });
      return {
        registry: registry.url,
        packages: rows,
        releaseFailure,
        ok:
          releaseFailure === undefined &&
          rows.length > 0 &&
          rows.every((row) => row.published && row.imported),
      };
    } finally {
      await registry.close();
    }
  } finally {
    copy.remove();
  }
}
