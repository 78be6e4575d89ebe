import { readFileSync } from "node:fs";

/**
 * The packages a guide's ```ts blocks import (`@tessera/webhooks/sql`, `hono`…), each once, in
 * order; relative imports (a file of the reader's project) and Node's own modules are left out.
 */
export function guideImports(markdown: string): string[] {
  const code = [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((block) => block[1]).join("\n");
  const specifiers = [...code.matchAll(/^import\s[^;]*?\sfrom\s+"([^".][^"]*)"/gm)].map(
    (found) => found[1]!,
  );
  return [...new Set(specifiers.filter((specifier) => !specifier.startsWith("node:")))];
}

/** Reads the guide at `path`; see {@link guideImports}. */
export function readGuideImports(path: string): string[] {
  return guideImports(readFileSync(path, "utf8"));
}
