import { decodeJsonCreate, decodeJsonUpdate, encodeRecord } from "@tessera/fields";
import { badRequest, notFound, readJsonBody, readListPage } from "@tessera/http";
import { type JsonAttachmentRoutes, jsonAttachmentRoutes } from "./json-attachment-routes.js";
import { decodeRefusal, writeRefusal } from "./json-refusals.js";
import { recordKeyOf } from "./record-key.js";
import type {
  RecordContext,
  RecordHandler,
  RecordRoute,
  RecordRoutesOptions,
  RouteParams,
} from "./record-options.js";
import { recordWrites } from "./record-writes.js";

/**
 * Default cap of a JSON record body: a 2,000,000-byte text value must fit, with room for the
 * other fields and for escapes.
 */
export const DEFAULT_MAXIMUM_JSON_BYTES = 4 * 1024 * 1024;

/** The JSON handlers of one model, and the route table to mount them from. */
export interface JsonRecordRoutes extends JsonAttachmentRoutes {
  /** `GET /api/<plural>?limit=&offset=`: the owner's records, newest first. */
  readonly list: RecordHandler<RecordContext>;
  /** `GET /api/<plural>/{id}`. */
  readonly show: RecordHandler<RecordContext>;
  /** `POST /api/<plural>`: 201 and the record. */
  readonly create: RecordHandler<RecordContext>;
  /** `PATCH /api/<plural>/{id}`: 200 and the record; 409 on a stale `lock_version`. */
  readonly update: RecordHandler<RecordContext>;
  /** `DELETE /api/<plural>/{id}`: 204; the record's stored files go with it. */
  readonly delete: RecordHandler<RecordContext>;
  /** Every route of the model, in an order safe for first-match routers. */
  readonly routes: readonly RecordRoute<RecordContext>[];
}

/**
 * Builds the JSON record handlers of a model. They take the owner from the context (the app
 * authenticates the bearer token and answers 401 itself); the owner never comes from a body.
 * @throws {TypeError} when the model has attachments and no `storage` is given.
 */
export function jsonRecordRoutes(options: RecordRoutesOptions): JsonRecordRoutes {
  const { model, store } = options;
  const writes = recordWrites(options);
  const encode = (row: Readonly<Record<string, unknown>>) => encodeRecord(model.fields, row);
  const decodeOptions = options.newPublicId ? { newPublicId: options.newPublicId } : {};
  const attachments = jsonAttachmentRoutes(options, writes);
  const bodyOptions = { maximumBytes: options.maximumJsonBytes ?? DEFAULT_MAXIMUM_JSON_BYTES };

  const handlers = {
    async list(request: Request, context: RecordContext) {
      const page = readListPage(new URL(request.url));
      if (!page.ok) return badRequest(page.reason);
      const rows = await store.list(context.ownerId, page.value.limit, page.value.offset);
      return Response.json(rows.map(encode));
    },

    async show(_request: Request, context: RecordContext, params: RouteParams) {
      const key = recordKeyOf(model, params.id);
      const row = key && (await store.find(context.ownerId, key));
      return row ? Response.json(encode(row)) : notFound();
    },

    async create(request: Request, context: RecordContext) {
      const body = await readJsonBody(request, bodyOptions);
      if (!body.ok) return body.response;
      const decoded = decodeJsonCreate(model.fields, body.value, decodeOptions);
      if (!decoded.ok) return decodeRefusal(decoded);
      const created = await writes.create(context.ownerId, decoded.value.values);
      if (!created.ok) return writeRefusal(created);
      return Response.json(encode(created.row), { status: 201 });
    },

    async update(request: Request, context: RecordContext, params: RouteParams) {
      const key = recordKeyOf(model, params.id);
      // Found first, so any body sent for another user's record is a 404 as well.
      if (!key || !(await store.find(context.ownerId, key))) return notFound();
      const body = await readJsonBody(request, bodyOptions);
      if (!body.ok) return body.response;
      const decoded = decodeJsonUpdate(model.fields, body.value);
      if (!decoded.ok) return decodeRefusal(decoded);
      const { values, lockVersion } = decoded.value;
      const updated = await writes.update(context.ownerId, key, values, lockVersion);
      return updated.ok ? Response.json(encode(updated.row)) : writeRefusal(updated);
    },

    async delete(_request: Request, context: RecordContext, params: RouteParams) {
      const key = recordKeyOf(model, params.id);
      const row = key && (await writes.remove(context.ownerId, key));
      return row ? new Response(null, { status: 204 }) : notFound();
    },
  } satisfies Record<string, RecordHandler<RecordContext>>;

  const base = `/api/${model.table}`;
  const routes: RecordRoute<RecordContext>[] = [
    { method: "GET", path: base, handle: handlers.list },
    { method: "POST", path: base, handle: handlers.create },
    { method: "GET", path: `${base}/:id`, handle: handlers.show },
    { method: "PATCH", path: `${base}/:id`, handle: handlers.update },
    { method: "DELETE", path: `${base}/:id`, handle: handlers.delete },
    ...attachments.routes,
  ];
  return { ...handlers, ...attachments.handlers, routes };
}
