import { readFileSync } from "node:fs";
import ts from "typescript";
import { sourceOf } from "./entry-graph.js";

/** One import or re-export statement of a source file. */
export interface ImportStatement {
  readonly specifier: string;
  /**
   * Whether it loads the module at run time: everything but `import type` and `export type`.
   * With `verbatimModuleSyntax`, `import { type A } from "x"` still loads `x` (it becomes
   * `import {} from "x"`), so it counts; so does `import("x")`, but not the type `import("x").A`.
   */
  readonly runtime: boolean;
}

/** The import statements of one TypeScript source text, in the order written. */
export function importStatements(fileName: string, text: string): ImportStatement[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const statements: ImportStatement[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = node.importClause?.isTypeOnly === true;
      statements.push({ specifier: node.moduleSpecifier.text, runtime: !typeOnly });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      statements.push({ specifier: node.moduleSpecifier.text, runtime: !node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      statements.push({ specifier: node.arguments[0].text, runtime: true });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      statements.push({ specifier: node.argument.literal.text, runtime: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return statements;
}

/** The bare specifiers an entry imports, split by whether loading the entry loads them. */
export interface EntryImports {
  /** Loaded when the entry is: reached through run-time imports only. */
  readonly runtime: ReadonlySet<string>;
  /** Every bare import of every file the entry reaches, its types included. */
  readonly all: ReadonlySet<string>;
}

/**
 * What a source entry imports from other packages, following its relative imports. A bare
 * import is a run-time one when a file that loading the entry loads (reached through run-time
 * imports only) imports it at run time; a file reached only through `import type` is read for
 * `all` alone.
 */
export function entryImports(entryFile: string): EntryImports {
  const runtime = new Set<string>();
  const all = new Set<string>();
  const seen = new Map<string, boolean>();
  const pending: [file: string, loaded: boolean][] = [[entryFile, true]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [file, loaded] = next;
    // A file first met through a type is met again when something loads it.
    if (seen.get(file) === true || (seen.has(file) && !loaded)) continue;
    seen.set(file, loaded);
    for (const statement of importStatements(file, readFileSync(file, "utf8"))) {
      const atRuntime = loaded && statement.runtime;
      if (statement.specifier.startsWith(".")) {
        pending.push([sourceOf(file, statement.specifier), atRuntime]);
        continue;
      }
      all.add(statement.specifier);
      if (atRuntime) runtime.add(statement.specifier);
    }
  }
  return { runtime, all };
}
