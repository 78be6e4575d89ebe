import type { User } from "@tessera/accounts";
import { type BearerAuthenticator, unauthorizedResponse } from "@tessera/bearer";
import { type Clock, systemClock } from "@tessera/crypto";
import { defineModel, type Model } from "@tessera/fields";
import { graphqlApi, graphqlModel } from "@tessera/graphql";
import {
  htmlRecordRoutes,
  jsonRecordRoutes,
  type ObjectStorage,
  recordMigration,
} from "@tessera/records";
import { requireUser } from "@tessera/session";
import { type SqlDatabase, SqliteRecordStore, type SqliteUserStore } from "@tessera/sqlite";
import type { AppHono } from "./accounts.js";
import { renderLayout } from "./views/layout.js";

/** The example app's resources, declared as docs/routes.md lists them. */
export const postModel = defineModel(
  "post",
  "title:string body:rich_text? published:bool views:integer? rating:float? publish_on:date? starts_at:datetime? reminder_at:time? price:decimal? external_ref:uuid? metadata:json? status:enum:draft,review,published slug:string?^ cover:attachment? lock_version:integer photos:attachments".split(
    " ",
  ),
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
/** Served as JSON and HTML like the others, and through GraphQL at `POST /graphql`. */
export const noteModel = graphqlModel(
  defineModel(
    "note",
    "title:string body:text? pinned:bool due_on:date? rating:float? word_count:integer? tags:json? post:references?".split(
      " ",
    ),
  ),
);

/**
 * Every record model of the app, in the order their tables must be created. A new model goes
 * at the end: its position numbers its migration, and applied migrations keep their ids.
 */
export const recordModels: readonly Model[] = [
  postModel,
  commentModel,
  labelModel,
  reactionModel,
  noteModel,
];
/** The models served through GraphQL too. */
export const graphqlModels: readonly Model[] = [noteModel];

/** The record tables' migrations. */
export const recordMigrations = recordModels.map((model, index) =>
  recordMigration(model, `02${String(index).padStart(2, "0")}_app_create_${model.table}`),
);

/** What the record routes are wired from. */
export interface RecordWiring {
  readonly database: SqlDatabase;
  readonly storage: ObjectStorage;
  readonly users: SqliteUserStore;
  readonly bearer: BearerAuthenticator<User>;
  readonly clock?: Clock;
}

/**
 * Mounts the JSON API (bearer token) and the HTML pages (signed-in session) of every record
 * model, and `POST /graphql` (bearer token) for the GraphQL models. The owner always comes
 * from the credentials, never from the request body.
 */
export function mountRecordRoutes(app: AppHono, wiring: RecordWiring): void {
  const clock = wiring.clock ?? systemClock;
  const optionsOf = (model: Model) => ({
    model,
    store: new SqliteRecordStore(wiring.database, model),
    storage: wiring.storage,
    clock,
  });
  // The owner a bearer token stands for; the same check for JSON and GraphQL.
  const bearerOwner = async (request: Request) => {
    const authenticated = await wiring.bearer.authenticate(request);
    return authenticated.ok ? { ownerId: authenticated.value.user.id } : undefined;
  };
  for (const model of recordModels) {
    const options = optionsOf(model);
    for (const route of jsonRecordRoutes(options).routes) {
      app.on(route.method, route.path, async (c) => {
        const owner = await bearerOwner(c.req.raw);
        if (!owner) return unauthorizedResponse();
        return route.handle(c.req.raw, owner, c.req.param());
      });
    }
    for (const route of htmlRecordRoutes({ ...options, layout: renderLayout }).routes) {
      app.on(route.method, route.path, async (c) => {
        const session = c.get("session");
        const access = await requireUser(session, c.req.raw, (id) => wiring.users.findById(id));
        if (!access.ok) return access.response;
        const user = access.value;
        return route.handle(
          c.req.raw,
          { ownerId: user.id, signedInEmail: user.email, session },
          c.req.param(),
        );
      });
    }
  }
  const graphql = graphqlApi({
    records: graphqlModels.map(optionsOf),
    authenticate: bearerOwner,
  });
  app.post("/graphql", (c) => graphql.handle(c.req.raw));
}
