import type { Finding } from "./findings.js";
import { distFiles } from "./packed-files.js";

/**
 * The top-level functions and classes of a file built by esbuild, by name: each statement that
 * starts unindented with function or class, up to the next unindented line that does not close
 * it. Whitespace is collapsed so CJS and ESM builds of one source compare equal. Constants are
 * left out: two packages may well both say `var MAX_ERROR_LENGTH = 1e3;`, and an inlined
 * package always brings functions along.
 */
function topLevelDefinitions(text: string): Map<string, string> {
  const definitions = new Map<string, string>();
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    const name = line.match(/^(?:async\s+)?(?:function\*?|class)\s+([\w$]+)/)?.[1];
    if (!name) return;
    let end = index + 1;
    while (end < lines.length && /^(\s|[}\])])/.test(lines[end]!)) end += 1;
    definitions.set(name, lines.slice(index, end).join("\n").replace(/\s+/g, " "));
  });
  return definitions;
}

/** Local names an ES module built by esbuild lists in its `export { … };` clauses. */
function exportedNames(text: string): string[] {
  return [...text.matchAll(/^export\s*\{([^}]*)\}\s*;/gm)]
    .flatMap((match) => match[1]!.split(","))
    .map((item) => item.trim().split(/\s+as\s+/)[0]!)
    .filter((name) => name !== "");
}

/**
 * No dist may carry a copy of another Tessera package. Every definition a package's own ES build
 * exports is looked for in every other package's dist (ESM and CJS): the same name defined with
 * the same text means the code was copied (inlined by the bundler, or written twice), while a
 * private helper that merely shares a name is left alone.
 */
export function siblingCopies(unpackedByName: ReadonlyMap<string, string>): Finding[] {
  const files = new Map(
    [...unpackedByName].map(([name, unpacked]) => [
      name,
      distFiles(unpacked)
        .filter((file) => /\.c?js$/.test(file.path))
        .map((file) => ({ ...file, definitions: topLevelDefinitions(file.text) })),
    ]),
  );
  const findings: Finding[] = [];
  for (const [owner, ownerFiles] of files) {
    const exported = new Map(
      ownerFiles
        .filter((file) => file.path.endsWith(".js"))
        .flatMap((file) =>
          exportedNames(file.text)
            .filter((name) => file.definitions.has(name))
            .map((name) => [name, file.definitions.get(name)!] as const),
        ),
    );
    for (const [packageName, packageFiles] of files) {
      if (packageName === owner) continue;
      for (const file of packageFiles) {
        const copied = [...exported]
          .filter(([name, definition]) => file.definitions.get(name) === definition)
          .map(([name]) => name);
        if (copied.length > 0) {
          findings.push({
            packageName,
            check: "sibling-copy",
            detail: `${file.path} defines ${owner}'s ${copied.join(", ")} with the same code`,
          });
        }
      }
    }
  }
  return findings;
}
