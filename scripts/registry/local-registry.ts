import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { runServer } from "verdaccio";
import type { WorkspacePackage } from "../check-packages/workspace-packages.js";
import { registryConfig } from "./registry-config.js";

/** A running local registry: its URL, and how to stop it (its packages are removed). */
export interface LocalRegistry {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts verdaccio on 127.0.0.1:`port` with an empty store of its own in a temporary folder.
 * Rejects with the listen error (`EADDRINUSE` when the port is taken).
 */
export async function startLocalRegistry(port: number): Promise<LocalRegistry> {
  const folder = mkdtempSync(join(tmpdir(), "tessera-registry-"));
  const server: Server = await runServer(registryConfig(folder));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}`;
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

const execFileAsync = promisify(execFile);

/**
 * Publishes each package's folder (its built tree, as `npm pack` would take it) to the registry
 * at `url`. The registry lets anyone publish `@tessera/*`, but npm sends no publish without a
 * token: any token does.
 */
export async function publishPackages(
  url: string,
  packages: readonly WorkspacePackage[],
): Promise<void> {
  const token = `--${url.replace(/^http:/, "")}/:_authToken=local`;
  for (const pkg of packages) {
    await execFileAsync("npm", ["publish", "--registry", url, token, "--loglevel", "error"], {
      cwd: pkg.folder,
    });
  }
}
