import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../../scripts/ensure-chromium.sh", import.meta.url));
const bash = execFileSync("sh", ["-c", "command -v bash"]).toString().trim();
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * Runs the script as root on a machine whose only commands are a fake `id` (root) and a fake
 * `apt-get` that records its calls: whatever the script would install shows up in that record.
 */
function runAsRoot(environment: Record<string, string>) {
  const folder = mkdtempSync(join(tmpdir(), "tessera-chromium-"));
  folders.push(folder);
  const bin = join(folder, "bin");
  const record = join(folder, "apt-get-calls");
  execFileSync("mkdir", [bin]);
  const command = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!${bash}\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  command("id", "echo 0");
  command("apt-get", `echo "$*" >> ${record}`);
  const result = spawnSync(bash, [script], {
    env: { PATH: bin, ...environment },
    encoding: "utf8",
  });
  return {
    status: result.status,
    stderr: result.stderr,
    aptGetCalls: existsSync(record) ? readFileSync(record, "utf8").trim().split("\n") : [],
  };
}

describe("scripts/ensure-chromium.sh", () => {
  it("uses an executable CHROMIUM_PATH as it is and installs nothing", () => {
    const folder = mkdtempSync(join(tmpdir(), "tessera-own-chromium-"));
    folders.push(folder);
    const chromium = join(folder, "my-chromium");
    writeFileSync(chromium, "#!/bin/sh\n");
    chmodSync(chromium, 0o755);
    const run = runAsRoot({ CHROMIUM_PATH: chromium });
    expect(run.status).toBe(0);
    expect(run.aptGetCalls).toEqual([]);
  });

  it("refuses a CHROMIUM_PATH that is no executable file, naming it, and installs nothing", () => {
    const missing = join(tmpdir(), "no-such-folder-for-tessera", "chromium");
    const run = runAsRoot({ CHROMIUM_PATH: missing });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`CHROMIUM_PATH is ${missing}`);
    expect(run.aptGetCalls).toEqual([]);
  });
});
