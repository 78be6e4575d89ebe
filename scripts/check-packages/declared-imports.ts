import { isBuiltin } from "node:module";
import ts from "typescript";
import type { Finding } from "./findings.js";
import { distFiles } from "./packed-files.js";
import { type Manifest, packageNameOf } from "./workspace-packages.js";

/**
 * Every bare import of the packed dist (runtime files and type declarations alike) must name a
 * dependency or peer dependency of the package, or a Node built-in: strict pnpm lets a package
 * see nothing else.
 */
export function declaredImportFindings(manifest: Manifest, unpacked: string): Finding[] {
  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const undeclared = new Map<string, Set<string>>();
  for (const file of distFiles(unpacked)) {
    // TypeScript's scanner finds import, export…from, import() and require() alike.
    for (const { fileName: specifier } of ts.preProcessFile(file.text, true, true).importedFiles) {
      if (specifier.startsWith(".") || isBuiltin(specifier)) continue;
      const name = packageNameOf(specifier);
      if (declared.has(name)) continue;
      undeclared.set(name, (undeclared.get(name) ?? new Set()).add(file.path));
    }
  }
  return [...undeclared].map(([name, files]) => ({
    packageName: manifest.name,
    check: "undeclared-import",
    detail: `${name} (in ${[...files].join(", ")})`,
  }));
}
