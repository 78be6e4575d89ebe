import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  createTableSql,
  type DeclarationContext,
  type Field,
  type Model,
  ORGANIZATION_TABLE,
  OWNER_TABLE,
  ownerColumnsOf,
  POSTGRES,
  parseDeclaration,
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
import { installLine, loadAppPackage } from "./app-packages.js";
import { refuseRequiredWithoutValue } from "./existing-rows.js";
import { applyFileChanges } from "./file-changes.js";
import type { Invocation } from "./invocation.js";
import { migrationFile, modelModule } from "./model-module.js";
import { parseModelSource } from "./model-source.js";
import { mountChanges } from "./mount-changes.js";
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

/**
 * `tessera check`: parses the declarations against the app and lists the resolved fields; with
 * `--existing-table`, refuses a required field the rows already there would have no value for.
 */
export function check(invocation: Invocation, root: string): Outcome {
  const parsed = parseDeclarations(invocation.declarations, contextFor(invocation, root));
  if (!parsed.ok) return parsed;
  // As `generate migration add_…` answers: the rows there get no made-up value.
  const withoutValue =
    invocation.existingTable && refuseRequiredWithoutValue(parsed.value, undefined);
  if (withoutValue) return withoutValue;
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
  if (invocation.mount && invocation.declarations.length === 0) {
    return mountGeneratedModel(invocation, root, name);
  }
  if (fileExists(root, modelPath(name))) {
    return refused(
      `\`${modelPath(name)}\` already exists`,
      `choose another model name, or delete the file to generate it again (\`tessera generate model ${name} --mount\` mounts its routes)`,
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
  const missingTable = owner && missingOwnerTable(root, owner, invocation.registry);
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
  const notes = owner === "organization" ? organizationNotes(table) : [];
  // A table no one owns is no record of @tessera/records: no routes to mount.
  const mounting =
    owner &&
    mountChanges(
      root,
      {
        name,
        owner,
        htmlOnly: invocation.htmlOnly,
        attachments: fields.some((field) => ATTACHMENT_TYPES.has(field.type)),
      },
      invocation.mount,
    );
  if (mounting && !mounting.ok) return mounting;
  return applyFileChanges(
    root,
    { created: files, notes, ...(mounting ? mounting.changes : {}) },
    invocation,
  );
}

const ATTACHMENT_TYPES: ReadonlySet<Field["type"]> = new Set(["attachment", "attachments"]);

/**
 * `tessera generate model <name> --mount` without declarations: the routes of the model
 * generated before, added to src/app.ts; refused when its module is missing, not in the
 * generator's form, or of a table no one owns.
 */
function mountGeneratedModel(invocation: Invocation, root: string, name: string): Outcome {
  const path = modelPath(name);
  if (!fileExists(root, path)) {
    return refused(
      `\`${path}\` does not exist`,
      `generate the model with its fields: \`tessera generate model ${name} title:string --mount\``,
    );
  }
  const text = readFileSync(join(root, path), "utf8");
  const source = parseModelSource(text);
  if (!source) {
    return refused(
      `\`${path}\` is not in the form the generator writes`,
      "mount its routes yourself: `jsonRecordRoutes` of @tessera/records, `htmlRecordRoutes` of @tessera/records/html",
    );
  }
  if (!source.owned) {
    return refused(
      `\`${path}\` is of a table no one owns: there are no record routes to mount`,
      "@tessera/records serves the records of a user or of an organization",
    );
  }
  const mounting = mountChanges(
    root,
    {
      name,
      owner: source.owner,
      htmlOnly: /^\/\/ Generated by `[^`]*--html-only/m.test(text),
      attachments: source.declarations.some((declaration) => {
        const parsed = parseDeclaration(declaration);
        return parsed.ok && ATTACHMENT_TYPES.has(parsed.value.type);
      }),
    },
    true,
  );
  if (!mounting.ok) return mounting;
  return applyFileChanges(root, { created: [], ...mounting.changes }, invocation);
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
function missingOwnerTable(
  root: string,
  owner: RecordOwnerKind,
  registry: string | undefined,
): Outcome | undefined {
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
      `${installLine(root, ["@tessera/organizations"], registry)}, then write its migration (\`organizationMigrations\` of @tessera/organizations/sql) into migrations/, after the account ones; or leave out \`--owner organization\``,
    );
  }
  return undefined;
}

/** Where an organization's model is served, and how to serve it through GraphQL. */
function organizationNotes(table: string): string[] {
  return [
    `its routes are an organization's, with \`scope: organizationRecords({ organizations, roles })\` of @tessera/organizations/routes: GET|POST /api/orgs/{slug}/${table}, GET|PATCH|DELETE /api/orgs/{slug}/${table}/{id}, and the pages under /orgs/{slug}/${table}, each checking the member's \`${table}:<action>\` permission`,
    "for GraphQL, wrap it in graphqlModel and give graphqlRoutes organizationOwner: resolveOrganizationRecordOwner({ organizations, roles })",
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
  const files = await accountFiles(root, dialect, command, invocation.registry);
  if (!files.ok) return files;
  return applyFileChanges(root, { created: files.value }, invocation);
}

/**
 * The files `generate accounts` writes (the user model, then the account migrations numbered
 * on from the app's last), each naming `command`; or a refusal when @tessera/accounts cannot
 * be loaded, whose install line names `registry`.
 */
export async function accountFiles(
  root: string,
  dialect: "sqlite" | "postgres",
  command: string,
  registry?: string | undefined,
): Promise<
  | { readonly ok: true; readonly value: (readonly [path: string, content: string])[] }
  | { readonly ok: false; readonly reason: string; readonly hint: string }
> {
  const accounts = await loadAppPackage(root, "@tessera/accounts/sql", { registry });
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
