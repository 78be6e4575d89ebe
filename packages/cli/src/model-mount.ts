import type { RecordOwnerKind } from "@tessera/fields";
import { compareSources, importStatement, type NamedImport, withImports } from "./import-block.js";
import { modelExportName } from "./model-module.js";

/** The file of a `tessera new` project that mounts its routes (`createApp`). */
export const ROUTES_FILE = "src/app.ts";

/**
 * The last line of that file's routes list, as `tessera new` writes it: `--mount` adds a
 * model's routes above it.
 */
export const ROUTES_MARKER =
  "// `tessera generate model <name> --mount` adds a model's routes above this line.";

/** What mounting a model's routes depends on. */
export interface MountedModel {
  /** The model's name (`post`); its module is `src/models/<name>.ts`. */
  readonly name: string;
  readonly owner: RecordOwnerKind;
  /** Generated with `--html-only`: the pages, and no JSON API. */
  readonly htmlOnly: boolean;
  /** It declares an attachment field: its routes need a storage for the files. */
  readonly attachments: boolean;
}

/** A model's routes as a `tessera new` project mounts them: the imports, and the list's lines. */
export interface ModelMount {
  /** In Biome's order of their sources. */
  readonly imports: readonly NamedImport[];
  /** The lines to add to the routes list, unindented (the list's indentation goes before each). */
  readonly routes: readonly string[];
}

/**
 * The lines that serve `model` in `createApp` of a `tessera new` project, where `options` (its
 * `database`) and `accounts` (`bearer`, `sessions`, `users`) are in scope: its JSON API for a
 * bearer token (`jsonRecordRoutes`) and its pages for the signed-in session (`htmlRecordRoutes`
 * of @tessera/records/html), each on a `SqlRecordStore` of the app's database; files in
 * `data/uploads` when it has attachments; an organization's model under `/api/orgs/:slug` and
 * `/orgs/:slug` (`organizationRecords`).
 */
export function modelMount(model: MountedModel): ModelMount {
  const name = modelExportName(model.name);
  const organization = model.owner === "organization";
  const shared = [
    `model: ${name},`,
    `store: new SqlRecordStore(options.database, ${name}),`,
    ...(model.attachments ? ['storage: new FilesystemObjectStorage("data/uploads"),'] : []),
  ];
  const scope = organization
    ? ["scope: organizationRecords({ organizations: new SqlOrganizationStore(options.database) }),"]
    : [];
  const call = (callee: string, options: readonly string[]) => [
    `...${callee}({`,
    ...options.map((option) => `  ${option}`),
    "}),",
  ];
  const json = model.htmlOnly
    ? []
    : call("jsonRecordRoutes", [
        ...shared,
        "authenticate: bearerAuthentication(accounts.bearer),",
        ...scope,
      ]);
  const pages = call("htmlRecordRoutes", [
    ...shared,
    "layout: plainLayout,",
    "sessions: accounts.sessions,",
    "authenticate: sessionAuthentication((id) => accounts.users.findById(id)),",
    ...scope,
  ]);
  const imports: NamedImport[] = [
    ...(model.htmlOnly
      ? []
      : [
          { name: "bearerAuthentication", source: "@tessera/bearer" },
          { name: "jsonRecordRoutes", source: "@tessera/records" },
        ]),
    { name: "plainLayout", source: "@tessera/http" },
    { name: "htmlRecordRoutes", source: "@tessera/records/html" },
    { name: "SqlRecordStore", source: "@tessera/records/sql" },
    { name: "sessionAuthentication", source: "@tessera/session" },
    ...(model.attachments
      ? [{ name: "FilesystemObjectStorage", source: "@tessera/records/filesystem-storage" }]
      : []),
    ...(organization
      ? [
          { name: "organizationRecords", source: "@tessera/organizations/routes" },
          { name: "SqlOrganizationStore", source: "@tessera/organizations/sql" },
        ]
      : []),
    { name, source: `./models/${model.name}.js` },
  ];
  return {
    imports: imports.sort((a, b) => compareSources(a.source, b.source)),
    routes: [...json, ...pages],
  };
}

/** The mount's import statements, one a line. */
export function importLines(mount: ModelMount): string[] {
  return mount.imports.map(({ name, source }) => importStatement(source, [name]).trimEnd());
}

/** The routes file with a model mounted, whether that changed it, or why it cannot be done. */
export type MountedText =
  | { readonly ok: true; readonly text: string; readonly changed: boolean }
  | { readonly ok: false; readonly reason: string; readonly hint: string };

/**
 * `text`, the routes file of a `tessera new` project, with the model's imports added (see
 * {@link withImports}) and its routes above the {@link ROUTES_MARKER} line, indented as that
 * line is. Unchanged when the file uses the model's export already (mounted before, by this or
 * by hand); refused when the file is not in the shape `tessera new` writes: no marker line, or
 * more than one, or a start that is not its import statements.
 */
export function mountInto(text: string, model: string, mount: ModelMount): MountedText {
  const notGenerated = (what: string): MountedText => ({
    ok: false,
    reason: `\`${ROUTES_FILE}\` is not as \`tessera new\` wrote it: ${what}`,
    hint: `leave out \`--mount\` and add the printed lines to your routes yourself, or put back the line \`${ROUTES_MARKER}\` at the end of its routes list`,
  });
  const markers = text.split("\n").filter((line) => line.trim() === ROUTES_MARKER);
  if (markers.length !== 1) {
    return notGenerated(
      markers.length === 0 ? "its routes list has no marked end" : "it marks two ends of routes",
    );
  }
  const name = modelExportName(model);
  const body = text.replace(/^(?:import[^;]*;[ \t]*\n)+/, "");
  if (new RegExp(`\\b${name}\\b`).test(body)) return { ok: true, text, changed: false };
  const imported = withImports(text, mount.imports);
  if (imported === undefined) return notGenerated("it does not start with its imports");
  const lines = imported.split("\n");
  const at = lines.findIndex((line) => line.trim() === ROUTES_MARKER);
  const indent = /^\s*/.exec(lines[at]!)?.[0] ?? "";
  lines.splice(at, 0, ...mount.routes.map((line) => `${indent}${line}`));
  return { ok: true, text: lines.join("\n"), changed: true };
}
