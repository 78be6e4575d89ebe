import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig, type Options } from "tsup";

/** Anything not relative or absolute: `@tessera/crypto`, `jose`, `node:fs`. */
const BARE_SPECIFIER = /^[^./]/;

/**
 * One build per package under packages/: ES modules + .d.ts for every subpath the package's
 * `exports` names ("." is src/index.ts, "./smtp" is src/smtp.ts), and src/cli.ts for a package
 * with a `bin`.
 */
function packageBuild(folder: string): Options {
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as {
    exports?: Record<string, unknown>;
    bin?: Record<string, string>;
  };
  const subpaths = Object.keys(manifest.exports ?? { ".": null });
  const names = subpaths.map((subpath) => (subpath === "." ? "index" : subpath.slice(2)));
  // A command is not an import: its bin/ launcher starts dist/cli.js, which no `exports` names.
  if (manifest.bin) names.push("cli");
  const entry = Object.fromEntries(names.map((name) => [name, join(folder, "src", `${name}.ts`)]));
  return {
    entry,
    outDir: join(folder, "dist"),
    // ES modules only: Node 20.19+ (our engines floor) loads them with require() too, and one
    // build means one copy of each module's state (see the README's "Module format").
    format: ["esm"],
    dts: true,
    clean: true,
    sourcemap: true,
    target: "node20",
    // Every bare specifier stays an import: a package never ships a copy of another Tessera
    // package or of an npm dependency. (tsup's skipNodeModulesBundle is not enough: it lets the
    // root tsconfig `paths` resolve `@tessera/*` to sources, which esbuild then inlines.)
    external: [BARE_SPECIFIER],
    // Keep `node:` in imports: Deno and workerd resolve built-ins only under that prefix.
    removeNodeProtocol: false,
    silent: true,
  };
}

const packageFolders = readdirSync("packages", { withFileTypes: true })
  .filter(
    (entry) => entry.isDirectory() && existsSync(join("packages", entry.name, "package.json")),
  )
  .map((entry) => join("packages", entry.name));

export default defineConfig(packageFolders.map(packageBuild));
