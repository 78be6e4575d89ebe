import {
  createTableSql,
  type DeclarationContext,
  type Field,
  type Model,
  ORGANIZATION_TABLE,
  OWNER_TABLE,
  ownerColumnsOf,
  POSTGRES,
  parseDeclarations,
  pluralize,
  type RecordOwnerKind,
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
import { installCommand, loadAppPackage } from "./app-packages.js";
import { applyFileChanges } from "./file-changes.js";
import type { Invocation } from "./invocation.js";
import { migrationFile, modelExportName, modelModule } from "./model-module.js";
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
    takenColumns: invocation.owner ? ownerColumnsOf({ owner: invocation.owner }) : [],
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
  const owner = invocation.owner;
  if (owner === "organization" && ORGANIZATION_AREAS.includes(table)) {
    return refused(
      `the table \`${table}\` is named like a permission area of @tessera/organizations`,
      "pass `--table <name>` for another table name: `organizationRecords` refuses this one, whose permissions would mean something else",
    );
  }
  const parsed = parseDeclarations(invocation.declarations, contextFor(invocation, root, [name]));
  if (!parsed.ok) return parsed;
  const missingTable = owner && missingOwnerTable(root, owner);
  if (missingTable) return missingTable;

  const fields = withUniqueScope(parsed.value, invocation.uniqueScope);
  const model: Model = { name, table, fields, ...(owner === "organization" ? { owner } : {}) };
  const sql = createTableSql(model, {
    ownedByUser: owner !== false,
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
          ...(owner === "organization" ? { owner } : {}),
        },
      ),
    ],
    [nextMigrationNames(root, [`create_${table}`])[0]!, migrationFile(sql, command)],
  ] as const;
  const notes = owner === "organization" ? organizationNotes(name, table) : [];
  return applyFileChanges(root, { created: files, notes }, invocation);
}

/**
 * The tables whose names are permission areas of @tessera/organizations (its `BUILT_IN_AREAS`:
 * `members:invite`…): `organizationRecords` refuses a model with one of them as its table, as
 * `members:read` would mean something else. A test holds this list to the package's.
 */
export const ORGANIZATION_AREAS: readonly string[] = [
  "organization",
  "members",
  "records",
  "keys",
  "webhooks",
];

/**
 * The refusal of an owned model whose owner's table no migration creates yet: its foreign keys
 * name `users` (`user_id`, or an organization's `created_by`) and `organizations`, which must
 * come first, or PostgreSQL refuses the migration and SQLite takes a foreign key to nothing.
 */
function missingOwnerTable(root: string, owner: RecordOwnerKind): Outcome | undefined {
  if (!migrationCreates(root, OWNER_TABLE)) {
    return owner === "user"
      ? refused(
          "records belong to users, but no migration creates the `users` table",
          "run `tessera generate accounts` first, or pass `--no-owner` for a table no user owns",
        )
      : refused(
          "an organization's records name the member who created them (`created_by`), but no migration creates the `users` table",
          "run `tessera generate accounts` first, then add @tessera/organizations' migration",
        );
  }
  if (owner === "organization" && !migrationCreates(root, ORGANIZATION_TABLE)) {
    return refused(
      "records belong to organizations, but no migration creates the `organizations` table",
      `${installCommand(root)} @tessera/organizations, then write its migration (\`organizationMigrations\` of @tessera/organizations/sql) into migrations/, after the account ones; or leave out \`--owner organization\``,
    );
  }
  return undefined;
}

/** What to do with an organization's model: its routes, and the pages it has not. */
function organizationNotes(name: string, table: string): string[] {
  return [
    `serve it with jsonRecordRoutes({ model: ${modelExportName(name)}, store, authenticate, scope: organizationRecords({ organizations, roles }) }) of @tessera/records and @tessera/organizations/routes: GET|POST /api/orgs/{slug}/${table}, GET|PATCH|DELETE /api/orgs/{slug}/${table}/{id}, each checking the member's \`${table}:<action>\` permission`,
    "no HTML pages are generated for it (htmlRecordRoutes serves a user's records only, for now); for GraphQL, wrap it in graphqlModel and give graphqlRoutes organizationOwner: resolveOrganizationRecordOwner({ organizations, roles })",
  ];
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
