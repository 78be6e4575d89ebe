import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Finding } from "./findings.js";
import { runCommand } from "./run-command.js";

/**
 * publint and Are the Types Wrong on one tarball. attw runs with the `esm-only` profile: our
 * packages ship ES modules only, with an `exports` map that TypeScript resolves under node16,
 * nodenext and bundler, and those are checked. The profile leaves out `node10`, the pre-`exports`
 * resolution that cannot see a subpath such as `@tessera/fields/messages` at all, and a CommonJS
 * program under node16, whose compiler types `require()` of an ES module as an error although
 * Node 20.19+ runs it (the entry probe proves it does).
 */
export async function lintTarball(
  packageName: string,
  tarball: string,
  binDir: string,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  // --strict: publint's warnings fail too (its suggestions are only printed).
  const publint = await runCommand(join(binDir, "publint"), ["run", tarball, "--strict"], {
    cwd: binDir,
  });
  if (publint.code !== 0) {
    findings.push({ packageName, check: "publint", detail: publint.stdout + publint.stderr });
  }
  const attw = await runCommand(
    join(binDir, "attw"),
    [tarball, "--profile", "esm-only", "--format", "ascii", "--no-color"],
    { cwd: binDir },
  );
  if (attw.code !== 0)
    findings.push({ packageName, check: "attw", detail: attw.stdout + attw.stderr });
  return findings;
}

/** The tarball must carry the repository's LICENSE, word for word. */
export function licenseFindings(
  packageName: string,
  unpacked: string,
  rootLicense: string,
): Finding[] {
  const packed = join(unpacked, "LICENSE");
  if (!existsSync(packed))
    return [{ packageName, check: "license", detail: "no LICENSE in the tarball" }];
  return readFileSync(packed, "utf8") === rootLicense
    ? []
    : [{ packageName, check: "license", detail: "LICENSE differs from the repository's" }];
}
