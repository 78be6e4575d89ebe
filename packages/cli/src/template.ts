import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Framework } from "./new-project-frameworks.js";
import { packageFolder } from "./package-folder.js";

// Our own few lines rather than a template engine: the generated files are TypeScript, so what
// a value needs is escaping for where it lands in that code (a name, a string, a comment), which
// engines made for HTML do not know, and no loop or condition is wanted in a template.

/** The templates the generators fill in, each a file `templates/<name>.tmpl` of this package. */
export type TemplateName =
  | "model.ts"
  | "user-model.ts"
  | "job.ts"
  | "webhook.ts"
  | "webhook.test.ts"
  | "new-tsconfig.json"
  | "new-vitest.config.ts"
  | "new-gitignore"
  | "new-README.md"
  | "new-settings.ts"
  | "new-migrations.ts"
  | "new-start-error.ts"
  | "new-database-sqlite.ts"
  | "new-database-postgres.ts"
  | `new-app-${Framework}.ts`
  | "new-accounts.ts"
  | "new-home-page.ts"
  | "new-main.ts"
  | `new-listen-${Framework}.ts`
  | `new-client-${Framework}.ts`
  | "new-app-sqlite.test.ts"
  | "new-app-postgres.test.ts"
  | "new-account-tests.ts";

/**
 * How a value is written where its placeholder stands:
 * - `identifier`: a part of a TypeScript name (`{{identifier:camel}}Job`); anything else throws.
 * - `string`: a string literal, quotes included (`source: {{string:name}}`).
 * - `in-string`: inside a double-quoted string literal (`"/webhooks/{{in-string:name}}"`).
 * - `comment`: inside a `//` or `/** *\/` comment: line breaks become spaces and `*\/` cannot end it.
 * - `code`: code the generator wrote from values it escaped itself, as is.
 */
const ESCAPES = {
  identifier: (value: string) => {
    if (!/^[A-Za-z0-9_$]+$/.test(value)) throw new Error(`not a name part: ${value}`);
    return value;
  },
  string: (value: string) => JSON.stringify(value),
  "in-string": (value: string) => JSON.stringify(value).slice(1, -1),
  comment: (value: string) => value.replace(/[\r\n\u2028\u2029]+/g, " ").replaceAll("*/", "*\\/"),
  code: (value: string) => value,
} as const satisfies Record<string, (value: string) => string>;

/** `{{context:key}}`; anything else between double braces is a mistake in the template. */
const PLACEHOLDER = /\{\{(identifier|string|in-string|comment|code):([A-Za-z]+)\}\}/g;
/** A placeholder alone on its line, after its indentation. */
const BLOCK = /^( *)\{\{code:([A-Za-z]+)\}\}$/;

/** The templates folder: beside src/ when run from the sources, beside dist/ when built. */
function templatesFolder(): string {
  return join(packageFolder(), "templates");
}

/** The text of template `name` filled in with `values`, as {@link fillTemplate} does. */
export function renderTemplate(
  name: TemplateName,
  values: Readonly<Record<string, string>>,
): string {
  return fillTemplate(readFileSync(join(templatesFolder(), `${name}.tmpl`), "utf8"), values);
}

/**
 * `template` with each placeholder replaced by its value from `values`, escaped for its
 * context. A `code` placeholder alone on its line is a block: each line of its value is indented
 * as the placeholder is, and an empty value takes the line away. A placeholder without a value,
 * a value no placeholder uses, or double braces that are no placeholder throw: the template and
 * its generator have drifted apart.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  const unused = new Set(Object.keys(values));
  const valueFor = (key: string): string => {
    const value = Object.hasOwn(values, key) ? values[key] : undefined;
    if (value === undefined) throw new Error(`no value for the placeholder \`${key}\``);
    unused.delete(key);
    return value;
  };
  const lines = template.split("\n").flatMap((line) => {
    const block = BLOCK.exec(line);
    if (block) {
      const [, indent = "", key = ""] = block;
      const value = valueFor(key);
      if (value === "") return [];
      return value.split("\n").map((part) => (part === "" ? "" : `${indent}${part}`));
    }
    if (line.replace(PLACEHOLDER, "").includes("{{")) {
      throw new Error(`a placeholder that cannot be read in \`${line.trim()}\``);
    }
    return [
      line.replace(PLACEHOLDER, (_, context: keyof typeof ESCAPES, key: string) =>
        ESCAPES[context](valueFor(key)),
      ),
    ];
  });
  if (unused.size > 0) throw new Error(`values no placeholder uses: ${[...unused].join(", ")}`);
  return lines.join("\n");
}
