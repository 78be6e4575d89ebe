// The example app's client types as `tessera generate client` writes them for it: from the
// document it serves (saved to a file first, so the file's header names no port), in a folder
// of their own, then Biome-formatted for the repository. test/fixtures/app-api.d.ts holds them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "@tessera/cli/node";
import { biomeFormatted } from "./generated-types.js";

/** Where the app's generated types are committed. */
export const APP_TYPES_FILE = new URL("../fixtures/app-api.d.ts", import.meta.url);

/** What `tessera generate client --from openapi.json` writes for the app serving at `baseUrl`. */
export async function appTypes(baseUrl: string): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), "tessera-client-types-"));
  try {
    const served = await fetch(`${baseUrl}/api/openapi.json`);
    writeFileSync(join(folder, "openapi.json"), await served.text());
    let output = "";
    const code = await runCli(
      ["generate", "client", "--from", "openapi.json", "--out", "app-api.d.ts"],
      { cwd: folder, stdout: () => {}, stderr: (text) => (output += text) },
    );
    if (code !== 0) throw new Error(`tessera generate client failed: ${output}`);
    return biomeFormatted(readFileSync(join(folder, "app-api.d.ts"), "utf8"));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
