import {
  decodeJsonCreate,
  decodeJsonUpdate,
  encodeRecord,
  type Model,
  prepareRichText,
} from "@tessera/fields";
import {
  authenticated,
  badRequest,
  jsonAnswer,
  loadListPage,
  notFound,
  type Route,
  type RouteHandler,
  readJsonBody,
  readListPage,
  withMiddleware,
} from "@tessera/http";
import { jsonAttachmentRoutes } from "./json-attachment-routes.js";
import { jsonRecordsPath } from "./json-record-paths.js";
import { decodeRefusal, writeRefusal } from "./json-refusals.js";
import { recordKeyOf } from "./record-key.js";
import type { JsonRecordRoutesOptions, RecordRouteContext } from "./record-options.js";
import { recordActionOf, recordScopeOf, withCreator } from "./record-owner.js";
import { recordWrites } from "./record-writes.js";

/**
 * Default cap of a JSON record body: a 2,000,000-byte text value must fit, with room for the
 * other fields and for escapes.
 */
export const DEFAULT_MAXIMUM_JSON_BYTES = 4 * 1024 * 1024;

/**
 * The JSON record routes of a model: `GET /api/<plural>?limit=&offset=` (the owner's records,
 * newest first), `POST /api/<plural>` (201), `GET|PATCH|DELETE /api/<plural>/:id` (PATCH: 409
 * on a stale `lock_version`; DELETE: 204, the stored files go too), and the attachment
 * routes. Each request is authenticated first (`authenticate`; its refusal is the answer) and
 * acts for that user only: the owner never comes from a body, and another user's record is a
 * 404 like a missing one. A model with `owner: "organization"` is served under its `scope`'s
 * prefix (`/api/orgs/:slug/projects`) for the members whose role allows each action.
 * @throws {TypeError} when the model has attachments and no `storage` is given, or the
 * `scope` is not for the model's owner.
 *
 * @example
 * ```ts
 * import { accountRoutes } from "@tessera/accounts";
 * import { sqlAccountStores } from "@tessera/accounts/sql";
 * import { bearerAuthentication } from "@tessera/bearer";
 * import { defineModel } from "@tessera/fields";
 * import { jsonRecordRoutes } from "@tessera/records";
 * import { SqlRecordStore } from "@tessera/records/sql";
 * import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
 *
 * const database = openSqliteFile("data/app.db");
 * const accounts = accountRoutes({ ...sqlAccountStores(database), secretKeyBase: process.env.SECRET_KEY_BASE! });
 * const note = defineModel("note", ["title:string", "done:boolean"]);
 * const routes = jsonRecordRoutes({
 *   model: note,
 *   store: new SqlRecordStore(database, note),
 *   authenticate: bearerAuthentication(accounts.bearer),
 * }); // GET|POST /api/notes, GET|PATCH|DELETE /api/notes/:id
 * ```
 */
export function jsonRecordRoutes<M extends Model>(options: JsonRecordRoutesOptions<M>): Route[] {
  const { model, store } = options;
  const scope = recordScopeOf(model, options.scope);
  const writes = recordWrites(options);
  const encode = (row: Readonly<Record<string, unknown>>) => encodeRecord(model.fields, row);
  const decodeOptions = options.newPublicId ? { newPublicId: options.newPublicId } : {};
  const attachments = jsonAttachmentRoutes(options, writes, scope.pathPrefix);
  const bodyOptions = { maximumBytes: options.maximumJsonBytes ?? DEFAULT_MAXIMUM_JSON_BYTES };

  const handlers = {
    async list(request: Request, context: RecordRouteContext) {
      const url = new URL(request.url);
      const page = readListPage(url);
      if (!page.ok) return badRequest(page.reason);
      const { rows, headers } = await loadListPage(url, page.value, (asked) =>
        store.list(context.ownerId, asked),
      );
      return jsonAnswer(rows.map(encode), { headers, locale: context.locale });
    },

    async show(_request: Request, context: RecordRouteContext) {
      const key = recordKeyOf(model, context.params.id);
      const row = key && (await store.find(context.ownerId, key));
      return row ? jsonAnswer(encode(row), { locale: context.locale }) : notFound(context.locale);
    },

    async create(request: Request, context: RecordRouteContext) {
      const body = await readJsonBody(request, bodyOptions);
      if (!body.ok) return body.response;
      const richText = await prepareRichText(model.fields, body.value);
      const decoded = decodeJsonCreate(model.fields, body.value, { ...decodeOptions, richText });
      if (!decoded.ok) return decodeRefusal(decoded, context.locale);
      const { values } = decoded.value;
      const created = await writes.create(context.ownerId, withCreator(values, context));
      if (!created.ok) return writeRefusal(created, context.locale);
      return jsonAnswer(encode(created.row), { status: 201, locale: context.locale });
    },

    async update(request: Request, context: RecordRouteContext) {
      const key = recordKeyOf(model, context.params.id);
      // Found first, so any body sent for another user's record is a 404 as well.
      if (!key || !(await store.find(context.ownerId, key))) return notFound(context.locale);
      const body = await readJsonBody(request, bodyOptions);
      if (!body.ok) return body.response;
      const richText = await prepareRichText(model.fields, body.value);
      const decoded = decodeJsonUpdate(model.fields, body.value, { richText });
      if (!decoded.ok) return decodeRefusal(decoded, context.locale);
      const { values, lockVersion } = decoded.value;
      const updated = await writes.update(context.ownerId, key, values, lockVersion);
      return updated.ok
        ? jsonAnswer(encode(updated.row), { locale: context.locale })
        : writeRefusal(updated, context.locale);
    },

    async delete(_request: Request, context: RecordRouteContext) {
      const key = recordKeyOf(model, context.params.id);
      if (!key) return notFound(context.locale);
      const removed = await writes.remove(context.ownerId, key);
      return removed.ok
        ? new Response(null, { status: 204 })
        : writeRefusal(removed, context.locale);
    },
  } satisfies Record<string, RouteHandler<RecordRouteContext>>;

  const base = jsonRecordsPath(model, scope.pathPrefix);
  const routes: Route<RecordRouteContext>[] = [
    { method: "GET", path: base, handle: handlers.list },
    { method: "POST", path: base, handle: handlers.create },
    { method: "GET", path: `${base}/:id`, handle: handlers.show },
    { method: "PATCH", path: `${base}/:id`, handle: handlers.update },
    { method: "DELETE", path: `${base}/:id`, handle: handlers.delete },
    ...attachments,
  ];
  const authenticate = authenticated(options.authenticate);
  return routes.flatMap((route) =>
    withMiddleware(
      [route],
      authenticate,
      scope.ownerFor(recordActionOf(route.method, route.path, base), model),
    ),
  );
}
