import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig, type Options } from "tsup";

/**
 * One build per package under packages/: ESM + CJS + .d.ts for every subpath the package's
 * `exports` names ("." is src/index.ts, "./smtp" is src/smtp.ts).
 */
function packageBuild(folder: string): Options {
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as {
    exports?: Record<string, unknown>;
  };
  const subpaths = Object.keys(manifest.exports ?? { ".": null });
  const entry = Object.fromEntries(
    subpaths.map((subpath) => {
      const name = subpath === "." ? "index" : subpath.slice(2);
      return [name, join(folder, "src", `${name}.ts`)];
    }),
  );
  return {
    entry,
    outDir: join(folder, "dist"),
    format: ["esm", "cjs"],
    dts: true,
    clean: true,
    sourcemap: true,
    target: "node20",
    // Dependencies stay imports: a package never ships a copy of another (or of nodemailer).
    skipNodeModulesBundle: true,
    external: [/^@tessera\//],
    silent: true,
  };
}

const packageFolders = readdirSync("packages", { withFileTypes: true })
  .filter(
    (entry) => entry.isDirectory() && existsSync(join("packages", entry.name, "package.json")),
  )
  .map((entry) => join("packages", entry.name));

export default defineConfig(packageFolders.map(packageBuild));
