import type { User, UserStore } from "@tessera/accounts";
import { type BearerAuthenticator, bearerAuthentication } from "@tessera/bearer";
import { type Clock, systemClock } from "@tessera/core";
import { defineModel, type Model, withUniqueScope } from "@tessera/fields";
import type { CompileQuery } from "@tessera/graphql";
import { graphqlModel } from "@tessera/graphql/model";
import type { Route } from "@tessera/http";
import {
  organizationCallers,
  organizationEndpointOwnerId,
  organizationRecords,
  resolveOrganizationRecordOwner,
} from "@tessera/organizations/routes";
import type { OutboundWebhooks } from "@tessera/outbound";
import {
  jsonRecordRoutes,
  type ObjectStorage,
  type RecordEventType,
  recordEventTypes,
} from "@tessera/records";
import { htmlRecordRoutes } from "@tessera/records/html";
import { recordMigration, SqlRecordStore } from "@tessera/records/sql";
import { richTextSanitizer } from "@tessera/sanitizer";
import {
  type MaybeSessionContext,
  type SessionCookies,
  sessionAuthentication,
} from "@tessera/session";
import type { Migration, SqlDatabase } from "@tessera/sql";
import { lazyRoutes } from "./lazy-routes.js";
import { appOrganizationStore } from "./organizations.js";
import { renderLayout } from "./views/layout.js";

/** The example app's resources, declared as docs/routes.md lists them. */
export const postModel = defineModel(
  "post",
  "title:string body:rich_text? published:bool views:integer? rating:float? publish_on:date? starts_at:datetime? reminder_at:time? price:decimal? external_ref:uuid? metadata:json? status:enum:draft,review,published slug:string?^ cover:attachment? lock_version:integer photos:attachments".split(
    " ",
  ),
  { richText: richTextSanitizer },
);
export const commentModel = defineModel("comment", ["post:references", "body:text"]);
export const labelModel = defineModel("label", [
  "public_id:token",
  "name:string^",
  "color:string?",
]);
export const reactionModel = defineModel("reaction", [
  "target:polymorphic:post,comment",
  "kind:enum:like,love",
]);
/**
 * Served as JSON and HTML like the others, and through GraphQL at `POST /graphql`; its writes
 * send `note.created`, `note.updated` and `note.deleted` to the owner's webhook endpoints.
 */
export const noteModel = graphqlModel(
  defineModel(
    "note",
    "title:string body:text? pinned:bool due_on:date? rating:float? word_count:integer? tags:json? post:references?".split(
      " ",
    ),
    { events: true },
  ),
);

/**
 * An organization's records: served under `/api/orgs/{slug}/projects` to its members, as their
 * role allows (a viewer reads, a member writes), with `created_by` the member who made one; and
 * through GraphQL (`projects(organization: "<slug>")`, `createProject(organization:, input:)`…)
 * with the same check. Its writes send `project.created`, `.updated` and `.deleted` to the
 * organization's webhook endpoints.
 */
export const projectModel = graphqlModel(
  defineModel("project", ["name:string", "description:text?", "status:enum:active,archived"], {
    owner: "organization",
    events: true,
  }),
);

/** Every record model of the app, in the order their tables are created (see recordMigrations). */
export const recordModels: readonly Model[] = [
  postModel,
  commentModel,
  labelModel,
  reactionModel,
  noteModel,
  projectModel,
];
/** The models served through GraphQL too. */
export const graphqlModels: readonly Model[] = [noteModel, projectModel];
/** The app's event catalog: every event type its models declare, with its data's schema. */
export const appEventTypes: readonly RecordEventType[] = recordEventTypes(recordModels);

/**
 * The tables as 0200–0203 created them, when `^` was unique per owner: an applied migration
 * must not change, so they are still generated that way.
 */
const asFirstCreated = (model: Model): Model => ({
  ...model,
  fields: withUniqueScope(model.fields, "owner"),
});

/**
 * `posts.slug` and `labels.name` unique across the table, as the models declare: replaces the
 * per-owner indexes of 0200 and 0202 (same names). On a database where two users already share
 * a slug or a label name it fails, in its transaction, and the app does not start until one of
 * them is renamed (the README says how to find them).
 */
export const uniqueAcrossUsersMigration: Migration = {
  id: "0204_app_unique_across_users",
  sql: `DROP INDEX "index_posts_on_slug";
CREATE UNIQUE INDEX "index_posts_on_slug" ON "posts" ("slug") WHERE "slug" IS NOT NULL;
DROP INDEX "index_labels_on_name";
CREATE UNIQUE INDEX "index_labels_on_name" ON "labels" ("name");`,
};

/**
 * The record tables' migrations, in the order they were added: applied migrations keep their
 * ids and their SQL, so a new model's table comes after everything before it.
 */
export const recordMigrations: readonly Migration[] = [
  ...[postModel, commentModel, labelModel, reactionModel].map((model, index) =>
    recordMigration(asFirstCreated(model), `020${index}_app_create_${model.table}`),
  ),
  uniqueAcrossUsersMigration,
  recordMigration(noteModel, "0205_app_create_notes"),
  recordMigration(projectModel, "0206_app_create_projects"),
];

/**
 * Every storage key a record row of the app holds, of every user: what the sweep of
 * unreferenced stored files must keep.
 */
export async function referencedFileKeys(database: SqlDatabase): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const model of recordModels) {
    for (const key of await new SqlRecordStore(database, model).referencedFileKeys()) {
      keys.add(key);
    }
  }
  return keys;
}

/** What the record routes are wired from. */
export interface RecordWiring {
  readonly database: SqlDatabase;
  readonly storage: ObjectStorage;
  readonly users: UserStore;
  readonly bearer: BearerAuthenticator<User>;
  /** The cookie sessions of the account pages: the record pages share them. */
  readonly sessions: SessionCookies;
  readonly allowedOrigins: readonly string[];
  readonly clock?: Clock;
  /**
   * Loads what compiles GraphQL operations (see `graphqlRoutes`' `compileQuery`), with the rest
   * of GraphQL on the first operation.
   */
  readonly loadGraphqlCompiler?: () => Promise<CompileQuery>;
  /** Where the models' declared events (notes') are sent; without it none are. */
  readonly outbound?: OutboundWebhooks<SqlDatabase>;
}

/** Where each record model's store, storage and clock come from. */
function recordOptions(wiring: RecordWiring) {
  const clock = wiring.clock ?? systemClock;
  return (model: Model) => ({
    model,
    // A model that declares events sends them in the write's transaction (notes and projects
    // do); an organization's go to its endpoints, stored apart from its members' own.
    store: new SqlRecordStore(wiring.database, model, {
      events: wiring.outbound,
      eventOwner: model.owner === "organization" ? organizationEndpointOwnerId : undefined,
    }),
    storage: wiring.storage,
    clock,
  });
}

/**
 * The HTML pages of every record model, for the signed-in session (an organization's under
 * `/orgs/:slug`); mount them behind the cookie session.
 */
export function recordPageRoutes(wiring: RecordWiring): Route<MaybeSessionContext>[] {
  const optionsOf = recordOptions(wiring);
  const pages = {
    layout: renderLayout,
    richTextEditor: "trix" as const,
    sessions: wiring.sessions,
    allowedOrigins: wiring.allowedOrigins,
    authenticate: sessionAuthentication((id) => wiring.users.findById(id)),
  };
  // An organization's pages are under it (`/orgs/:slug/projects`), for its members whose role
  // allows each action, as its JSON API is.
  const ofOrganization = organizationRecords({
    organizations: appOrganizationStore(wiring.database),
  });
  return recordModels.flatMap((model) =>
    htmlRecordRoutes({
      ...optionsOf(model),
      ...pages,
      scope: model.owner === "organization" ? ofOrganization : undefined,
    }),
  );
}

/**
 * The JSON API of every record model and `POST /graphql` for the GraphQL models, for a bearer
 * token: no cookie session needed. The owner always comes from the credentials, never from
 * the request body.
 */
export function recordApiRoutes(wiring: RecordWiring): Route[] {
  const optionsOf = recordOptions(wiring);
  const bearer = bearerAuthentication(wiring.bearer);
  const organizations = appOrganizationStore(wiring.database);
  const organizationAccess = { organizations };
  const ofOrganization = organizationRecords(organizationAccess);
  // An organization's records also take its keys; every other route refuses them (401).
  const memberOrKey = organizationCallers({
    organizations,
    authenticate: bearer,
    clock: wiring.clock,
  });
  return [
    ...recordModels.flatMap((model) =>
      model.owner === "organization"
        ? jsonRecordRoutes({
            ...optionsOf(model),
            authenticate: memberOrKey,
            scope: ofOrganization,
          })
        : jsonRecordRoutes({ ...optionsOf(model), authenticate: bearer }),
    ),
    // graphql-js, graphql-jit and the schema are loaded and built by the first operation, not at
    // start: most requests never need them (about a third of the start time and memory).
    ...lazyRoutes(
      [
        { method: "POST", path: "/graphql" },
        { method: "GET", path: "/graphql" },
      ],
      async () => {
        // One after the other: graphql-jit require()s graphql, and Node 20 fails a require() of
        // an ES module that an import() is still loading.
        const { graphqlRoutes } = await import("@tessera/graphql");
        const compileQuery = await wiring.loadGraphqlCompiler?.();
        return graphqlRoutes({
          records: graphqlModels.map(optionsOf),
          authenticate: bearer,
          // The same membership check as the JSON routes': projects' for their members only.
          organizationOwner: resolveOrganizationRecordOwner(organizationAccess),
          ...(compileQuery ? { compileQuery } : {}),
        });
      },
    ),
  ];
}
