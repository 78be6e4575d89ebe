import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** The parts of a package.json the check reads. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly exports?: Readonly<Record<string, unknown>>;
  readonly bin?: Readonly<Record<string, string>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
}

/** A package under packages/ and the specifiers a user imports it by. */
export interface WorkspacePackage {
  readonly folder: string;
  readonly manifest: Manifest;
  /** `@tessera/fields`, `@tessera/fields/messages`…: one per `exports` key. */
  readonly entries: readonly { readonly subpath: string; readonly specifier: string }[];
}

/** Every package under `<root>/packages`, sorted by name. */
export function workspacePackages(root: string): WorkspacePackage[] {
  const packagesDir = join(root, "packages");
  return readdirSync(packagesDir)
    .map((name) => join(packagesDir, name))
    .filter((folder) => statSync(join(folder, "package.json"), { throwIfNoEntry: false }))
    .map((folder) => {
      const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as Manifest;
      const entries = Object.keys(manifest.exports ?? { ".": null }).map((subpath) => ({
        subpath,
        specifier: subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
      }));
      return { folder, manifest, entries };
    })
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/** Optional peer dependencies, which a user installs only for the subpath that needs them. */
export function optionalPeers(manifest: Manifest): Record<string, string> {
  return Object.fromEntries(
    Object.entries(manifest.peerDependencies ?? {}).filter(
      ([name]) => manifest.peerDependenciesMeta?.[name]?.optional === true,
    ),
  );
}

/** The package a bare specifier belongs to: `@noble/hashes/sha2.js` → `@noble/hashes`. */
export function packageNameOf(specifier: string): string {
  return specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
}
