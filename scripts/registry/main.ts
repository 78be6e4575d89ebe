// `npm run registry`: a real npm registry on 127.0.0.1 (verdaccio) serving every Tessera
// package as built here, and every other package from npm, until Ctrl-C. Until the packages
// are on npm, install them in your own project with `--registry http://127.0.0.1:4873`.
// Options: --skip-build (publish the tree as last built). REGISTRY_PORT (default 4873).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { workspacePackages } from "../check-packages/workspace-packages.js";
import { publishPackages, startLocalRegistry } from "./local-registry.js";

const DEFAULT_PORT = 4873;
const root = join(import.meta.dirname, "..", "..");

const port = Number(process.env.REGISTRY_PORT || DEFAULT_PORT);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(
    `REGISTRY_PORT must be a port number (1 to 65535), not ${process.env.REGISTRY_PORT}`,
  );
  process.exit(1);
}

if (!process.argv.includes("--skip-build")) {
  console.log("Building the packages (npm run build)…");
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
}

const registry = await startLocalRegistry(port).catch((error: NodeJS.ErrnoException) => {
  console.error(
    error.code === "EADDRINUSE"
      ? `Port ${port} is in use: stop what runs there, or set REGISTRY_PORT to another port.`
      : `The registry did not start: ${error.message}`,
  );
  process.exit(1);
});
const packages = workspacePackages(root);
try {
  await publishPackages(registry.url, packages);
} catch (error) {
  console.error(`Publishing failed: ${(error as { stderr?: string }).stderr || error}`);
  await registry.close();
  process.exit(1);
}

console.log(
  `Registry ready on ${registry.url}: ${packages.length} @tessera packages, everything else from npm. ` +
    `Install with --registry ${registry.url} (Ctrl-C stops it).`,
);

const stop = async () => {
  await registry.close();
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
