import { isBuiltin } from "node:module";
import ts from "typescript";
import type { Finding } from "./findings.js";
import { distFiles } from "./packed-files.js";
import { type Manifest, packageNameOf } from "./workspace-packages.js";

/**
 * The package's imports and its declared dependencies must match, both ways. Every bare import
 * of the packed dist (runtime files and type declarations alike) must name a dependency or peer
 * dependency of the package, or a Node built-in: strict pnpm lets a package see nothing else.
 * And every dependency or peer dependency must be imported by that dist: one that is not makes
 * every user install it for nothing.
 */
export function declaredImportFindings(manifest: Manifest, unpacked: string): Finding[] {
  const dependencies = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ];
  const declared = new Set([manifest.name, ...dependencies]);
  const imported = new Set<string>();
  const undeclared = new Map<string, Set<string>>();
  for (const file of distFiles(unpacked)) {
    // TypeScript's scanner finds import, export…from, import() and require() alike.
    for (const { fileName: specifier } of ts.preProcessFile(file.text, true, true).importedFiles) {
      if (specifier.startsWith(".") || isBuiltin(specifier)) continue;
      const name = packageNameOf(specifier);
      imported.add(name);
      if (declared.has(name)) continue;
      undeclared.set(name, (undeclared.get(name) ?? new Set()).add(file.path));
    }
  }
  return [
    ...[...undeclared].map(([name, files]) => ({
      packageName: manifest.name,
      check: "undeclared-import" as const,
      detail: `${name} (in ${[...files].join(", ")})`,
    })),
    ...dependencies
      .filter((name) => !imported.has(name))
      .map((name) => ({
        packageName: manifest.name,
        check: "unused-dependency" as const,
        detail: `${name} is declared, and no file of dist/ imports it`,
      })),
  ];
}
