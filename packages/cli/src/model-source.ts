import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { existingModels, modelPath } from "./app-folder.js";

/** What the generator reads back from a model module it wrote. */
export interface ModelSource {
  readonly name: string;
  readonly table: string;
  /** The declarations as written in its `defineModel` call. */
  readonly declarations: readonly string[];
  /** Whether the module passes the model through `graphqlModel`. */
  readonly graphql: boolean;
  /** The module's text with its declarations list replaced by `declarations`. */
  withDeclarations(declarations: readonly string[]): string;
}

// A generated module lists one JSON string per line inside `defineModel("<name>", [ … ], …)`;
// `generate accounts` writes the users model's list empty on one line.
const DEFINE_MODEL =
  /defineModel\(\s*("[a-z0-9_]+")\s*,\s*\[([^\]]*)\]\s*,\s*\{\s*table:\s*("[a-z0-9_]+")/;

/** Reads a model module in the generator's form; undefined when it has been reshaped by hand. */
export function parseModelSource(text: string): ModelSource | undefined {
  const match = DEFINE_MODEL.exec(text);
  if (!match) return undefined;
  const [whole, name, list, table] = match as unknown as [string, string, string, string];
  let declarations: string[];
  try {
    declarations = JSON.parse(`[${list.trim().replace(/,\s*$/, "")}]`) as string[];
  } catch {
    return undefined;
  }
  if (!declarations.every((declaration) => typeof declaration === "string")) return undefined;
  const listStart = match.index + whole.indexOf("[") + 1;
  const listEnd = listStart + list.length;
  return {
    name: JSON.parse(name) as string,
    table: JSON.parse(table) as string,
    declarations,
    graphql: text.includes("graphqlModel("),
    withDeclarations(replacement) {
      const all = replacement.map((declaration) => JSON.stringify(declaration));
      // One declaration a line, indented as the list's first one, or on one line as it was.
      const indent = /\n([ \t]*)"/.exec(list)?.[1];
      const closing = /\n([ \t]*)$/.exec(list)?.[1] ?? "";
      const written =
        indent === undefined || all.length === 0
          ? all.join(", ")
          : `\n${all.map((line) => `${indent}${line},`).join("\n")}\n${closing}`;
      return text.slice(0, listStart) + written + text.slice(listEnd);
    },
  };
}

/** The model whose table is `table`, among the app's modules, with its path. */
export function modelOfTable(
  root: string,
  table: string,
): { readonly path: string; readonly source: ModelSource | undefined } | undefined {
  for (const model of existingModels(root)) {
    const path = modelPath(model);
    const text = readFileSync(join(root, path), "utf8");
    const source = parseModelSource(text);
    if (source?.table === table) return { path, source };
    // A module reshaped by hand still names its table somewhere: report it as unreadable.
    if (!source && new RegExp(`table:\\s*["'\`]${table}["'\`]`).test(text)) {
      return { path, source: undefined };
    }
  }
  return undefined;
}

/** Replaces a module's text (the file exists: the generator read it). */
export function rewriteModule(root: string, path: string, text: string): void {
  writeFileSync(join(root, path), text);
}
