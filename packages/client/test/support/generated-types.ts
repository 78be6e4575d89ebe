// Generated types as this repository commits them: formatted by Biome, as every file here is.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";

const BIOME = join(import.meta.dirname, "..", "..", "..", "..", "node_modules", ".bin", "biome");

/** `source` (TypeScript declarations) as Biome formats it. */
export function biomeFormatted(source: string): string {
  return execFileSync(BIOME, ["format", "--stdin-file-path=generated.d.ts"], {
    input: source,
    encoding: "utf8",
  });
}

/** openapi-typescript's types of `document`, with `header` on top, Biome-formatted. */
export async function committedTypes(
  document: Record<string, unknown>,
  header: string,
): Promise<string> {
  const types = astToString(await openapiTS(structuredClone(document) as never));
  return biomeFormatted(`${header}\n${types}`);
}
