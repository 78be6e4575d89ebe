import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { WorkspacePackage } from "./workspace-packages.js";

/**
 * `npm pack`s every package into `destination` (one npm run; each package's prepack copies the
 * LICENSE in) and unpacks each tarball beside it, as a registry would serve it. Returns the
 * tarball and the unpacked folder by package name.
 */
export function packAll(
  root: string,
  packages: readonly WorkspacePackage[],
  destination: string,
): Map<string, { readonly tarball: string; readonly unpacked: string }> {
  mkdirSync(destination, { recursive: true });
  const workspaceFlags = packages.flatMap((pkg) => ["--workspace", relative(root, pkg.folder)]);
  const output = execFileSync(
    "npm",
    ["pack", ...workspaceFlags, "--pack-destination", destination, "--json", "--silent"],
    { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  const packed = JSON.parse(output) as { readonly name: string; readonly filename: string }[];
  return new Map(
    packed.map(({ name, filename }) => {
      const tarball = join(destination, filename);
      const unpacked = join(destination, "unpacked", name);
      mkdirSync(unpacked, { recursive: true });
      execFileSync("tar", ["-xzf", tarball, "-C", unpacked, "--strip-components=1"]);
      return [name, { tarball, unpacked }];
    }),
  );
}
