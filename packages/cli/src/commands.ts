import {
  createTableSql,
  type DeclarationContext,
  type Field,
  type Model,
  POSTGRES,
  parseDeclarations,
  pluralize,
  refuse,
  SNAKE_CASE,
  SQLITE,
  withUniqueScope,
} from "@tessera/fields";
import { userModule } from "./accounts.js";
import {
  existingModels,
  fileExists,
  migrationCreates,
  modelPath,
  nextMigrationNames,
} from "./app-folder.js";
import { loadAppPackage } from "./app-packages.js";
import { applyFileChanges } from "./file-changes.js";
import type { Invocation } from "./invocation.js";
import { migrationFile, modelModule } from "./model-module.js";
import { packageMigrationFiles } from "./package-migrations.js";

/** What a command did: text and a JSON object to print, or a refusal with advice. */
export type Outcome =
  | { readonly ok: true; readonly text: string; readonly json: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly reason: string; readonly hint: string };

function refused(reason: string, hint: string): Outcome {
  return { ok: false, reason, hint };
}

/** The declaration context of the app in `root`: its models, and the command's options. */
export function contextFor(
  invocation: Invocation,
  root: string,
  extraModels: readonly string[] = [],
): DeclarationContext {
  return {
    models: [...existingModels(root), ...extraModels],
    jsonApi: !invocation.htmlOnly,
    graphql: invocation.graphql,
    existingTable: invocation.existingTable,
    takenColumns: invocation.owner ? ["user_id"] : [],
    modelPath,
  };
}

/** `tessera check`: parses the declarations against the app and lists the resolved fields. */
export function check(invocation: Invocation, root: string): Outcome {
  const parsed = parseDeclarations(invocation.declarations, contextFor(invocation, root));
  if (!parsed.ok) return parsed;
  const rows = parsed.value.map(describeField);
  const width = (column: 0 | 1 | 2) => Math.max(...rows.map((row) => row[column].length));
  const lines = rows.map((row) =>
    [row[0].padEnd(width(0)), row[1].padEnd(width(1)), row[2].padEnd(width(2)), row[3]]
      .join("  ")
      .trimEnd(),
  );
  const count = `${parsed.value.length} field${parsed.value.length === 1 ? "" : "s"}`;
  return {
    ok: true,
    text: [`ok: ${count}`, ...lines].join("\n"),
    json: { ok: true, fields: parsed.value },
  };
}

function describeField(field: Field): [string, string, string, string] {
  const type =
    field.type === "references"
      ? `references ${field.references?.model} (${field.references?.table})`
      : field.args.length > 0
        ? `${field.type}:${field.args.join(",")}`
        : field.type;
  const modifiers = [
    field.optional ? "optional" : "required",
    ...(field.unique ? ["unique"] : []),
  ].join(", ");
  const columns =
    field.columns.length > 0 ? `columns: ${field.columns.join(", ")}` : "files in a child table";
  return [field.name, type, modifiers, columns];
}

/** The settings the generators read: `DATABASE_URL` picks the dialect when `--dialect` does not. */
export type GeneratorEnvironment = Readonly<Record<string, string | undefined>>;

/** The SQL a generator writes: `--dialect`, else PostgreSQL's when `DATABASE_URL` names it. */
export function dialectOf(
  invocation: Invocation,
  env: GeneratorEnvironment,
): "sqlite" | "postgres" {
  return (
    invocation.dialect ??
    (/^postgres(ql)?:\/\//.test(env.DATABASE_URL ?? "") ? "postgres" : "sqlite")
  );
}

/** `tessera generate model`: writes `src/models/<model>.ts` and a CREATE TABLE migration. */
export function generateModel(
  invocation: Invocation,
  root: string,
  command: string,
  env: GeneratorEnvironment = {},
): Outcome {
  const name = invocation.model ?? "";
  if (!SNAKE_CASE.test(name)) {
    return refused(
      `invalid model name \`${name}\``,
      "model names are snake_case and singular, e.g. `post` or `blog_entry`",
    );
  }
  const table = invocation.table ?? pluralize(name);
  if (!SNAKE_CASE.test(table)) {
    return refused(`invalid table name \`${table}\``, "table names are snake_case, e.g. `posts`");
  }
  if (fileExists(root, modelPath(name))) {
    return refused(
      `\`${modelPath(name)}\` already exists`,
      "choose another model name, or delete the file to generate it again",
    );
  }
  if (migrationCreates(root, table)) {
    return refused(
      `a migration already creates the table \`${table}\``,
      "choose another model name, or pass `--table <name>` for a different table",
    );
  }
  const parsed = parseDeclarations(invocation.declarations, contextFor(invocation, root, [name]));
  if (!parsed.ok) return parsed;
  // The owner column references users: its table must come first, or PostgreSQL refuses the
  // migration and SQLite takes a foreign key to nothing.
  if (invocation.owner && !migrationCreates(root, "users")) {
    return refused(
      "records belong to users, but no migration creates the `users` table",
      "run `tessera generate accounts` first, or pass `--no-owner` for a table no user owns",
    );
  }

  const fields = withUniqueScope(parsed.value, invocation.uniqueScope);
  const model: Model = { name, table, fields };
  const sql = createTableSql(model, {
    ownedByUser: invocation.owner,
    dialect: dialectOf(invocation, env) === "postgres" ? POSTGRES : SQLITE,
  });
  const files = [
    [
      modelPath(name),
      modelModule(
        { name, table, declarations: fields.map((field) => field.declaration) },
        command,
        {
          uniqueScope: invocation.uniqueScope,
          graphql: invocation.graphql,
        },
      ),
    ],
    [nextMigrationNames(root, [`create_${table}`])[0]!, migrationFile(sql, command)],
  ] as const;
  return applyFileChanges(root, { created: files }, invocation);
}

/**
 * `tessera generate accounts`: the users model, and the account tables as @tessera/accounts
 * declares them, once per app.
 */
export async function generateAccounts(
  invocation: Invocation,
  root: string,
  env: GeneratorEnvironment = {},
): Promise<Outcome> {
  if (fileExists(root, modelPath("user")) || migrationCreates(root, "users")) {
    const refusal = refuse.accountsTwice();
    return refused(refusal.reason, refusal.hint);
  }
  const dialect = dialectOf(invocation, env);
  const command = `tessera generate accounts${invocation.dialect ? ` --dialect ${dialect}` : ""}`;
  const files = await accountFiles(root, dialect, command);
  if (!files.ok) return files;
  return applyFileChanges(root, { created: files.value }, invocation);
}

/**
 * The files `generate accounts` writes (the user model, then the account migrations numbered
 * on from the app's last), each naming `command`; or a refusal when @tessera/accounts cannot
 * be loaded.
 */
export async function accountFiles(
  root: string,
  dialect: "sqlite" | "postgres",
  command: string,
): Promise<
  | { readonly ok: true; readonly value: (readonly [path: string, content: string])[] }
  | { readonly ok: false; readonly reason: string; readonly hint: string }
> {
  const accounts = await loadAppPackage(root, "@tessera/accounts/sql");
  if (!accounts.ok) return accounts;
  const { accountMigrations } = accounts.value;
  return {
    ok: true,
    value: [
      [modelPath("user"), userModule()] as const,
      ...packageMigrationFiles(root, accountMigrations, dialect, command),
    ],
  };
}
