import type { Locale } from "@tessera/core";
import {
  type AttachmentRules,
  attachmentColumns,
  BLANK,
  childAttachmentName,
  DEFAULT_ATTACHMENT_RULES,
  encodeRecord,
  type Field,
  type FieldType,
  tooLargeMessage,
  validateAttachment,
} from "@tessera/fields";
import {
  badRequest,
  FORM_BODY_FAILURE_PREFIX,
  jsonAnswer,
  jsonError,
  notFound,
  pathId,
  type Route,
  type RouteHandler,
} from "@tessera/http";
import { attachedFile, downloadResponse } from "./attachment-download.js";
import { jsonRecordsPath } from "./json-record-paths.js";
import { fieldsRefusal, writeRefusal } from "./json-refusals.js";
import {
  DEFAULT_MAXIMUM_MULTIPART_PARTS,
  DEFAULT_MAXIMUM_PARTS_PER_NAME,
  readMultipartBody,
} from "./multipart-body.js";
import { recordKeyOf } from "./record-key.js";
import { TOO_MANY_PARTS } from "./record-messages.js";
import type { RecordContext, RecordRouteContext, RecordRoutesOptions } from "./record-options.js";
import type { RecordKey, RecordRow } from "./record-store.js";
import type { RecordWrites } from "./record-writes.js";
import { attachmentValues } from "./stored-files.js";

/**
 * Room for the multipart framing around the file: part headers and boundaries. A body over
 * the file limit plus this cannot hold an acceptable file and is refused before parsing.
 */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * The JSON attachment handlers of a model. `context.params.name` names the attachment field; the route
 * table binds it, so mounted routes need only `:id` (and `:file_id`).
 */
interface JsonAttachmentRoutes {
  /** `GET /api/<plural>/{id}/<name>`: the single file, as stored. */
  readonly downloadAttachment: RouteHandler<RecordRouteContext>;
  /** `PUT /api/<plural>/{id}/<name>`: multipart, file in part `file`; replaces the file. */
  readonly uploadAttachment: RouteHandler<RecordRouteContext>;
  /** `DELETE /api/<plural>/{id}/<name>`: 204; 404 when there is no file. */
  readonly deleteAttachment: RouteHandler<RecordRouteContext>;
  /** `GET /api/<plural>/{id}/<name>` of an `attachments` field: the files, oldest first. */
  readonly listFiles: RouteHandler<RecordRouteContext>;
  /** `POST /api/<plural>/{id}/<name>`: multipart, file in part `file`; 201 and the file. */
  readonly addFile: RouteHandler<RecordRouteContext>;
  /** `GET /api/<plural>/{id}/<name>/{file_id}`: one file, as stored. */
  readonly downloadFile: RouteHandler<RecordRouteContext>;
  /** `DELETE /api/<plural>/{id}/<name>/{file_id}`: 204. */
  readonly deleteFile: RouteHandler<RecordRouteContext>;
  /** `DELETE /api/<plural>/{id}/<name>` of an `attachments` field: every file; 204. */
  readonly deleteFiles: RouteHandler<RecordRouteContext>;
}

/** A field of an `attachments` child table: what its file rows hold. */
export function childFileField(field: Field): Field {
  const name = childAttachmentName(field);
  return {
    name,
    type: "attachment",
    optional: false,
    unique: false,
    args: [],
    columns: attachmentColumns(name),
    declaration: `${name}:attachment`,
  };
}

/** The attachment routes before authentication; {@link jsonRecordRoutes} hands them out. */
export function jsonAttachmentRoutes(
  options: RecordRoutesOptions,
  writes: RecordWrites,
  pathPrefix = "",
): Route<RecordRouteContext>[] {
  const { model, store } = options;
  const rulesOf = (name: string): AttachmentRules =>
    options.attachmentRules?.[name] ?? DEFAULT_ATTACHMENT_RULES;

  /** The attachment field and the owner's record the route names, or undefined for a 404. */
  async function target(
    context: RecordRouteContext,
    type: FieldType,
  ): Promise<{ field: Field; key: RecordKey; row: RecordRow } | undefined> {
    const field = model.fields.find(
      (each) => each.name === context.params.name && each.type === type,
    );
    const key = recordKeyOf(model, context.params.id);
    if (!field || !key) return undefined;
    const row = await store.find(context.ownerId, key);
    return row && { field, key, row };
  }

  /** The uploaded file of part `file`, checked against the field's rules, or the refusal. */
  async function readUpload(request: Request, field: Field, locale: Locale | undefined) {
    const rules = rulesOf(field.name);
    const body = await readMultipartBody(request, rules.maxBytes + MULTIPART_OVERHEAD_BYTES);
    if (!body.ok) {
      if (body.reason === "too-large") {
        return refused(fieldsRefusal({ [field.name]: [tooLargeMessage(rules.maxBytes)] }, locale));
      }
      if (body.reason === "too-many-parts" || body.reason === "too-many-parts-per-name") {
        return refused(
          jsonError(413, TOO_MANY_PARTS_MESSAGES[body.reason], { code: TOO_MANY_PARTS }),
        );
      }
      return refused(badRequest(`${FORM_BODY_FAILURE_PREFIX}${MULTIPART_REASONS[body.reason]}`));
    }
    const file = body.value
      .getAll("file")
      .findLast((entry): entry is File => typeof entry !== "string" && entry.name !== "");
    if (!file) return refused(fieldsRefusal({ [field.name]: [BLANK] }, locale));
    const messages = validateAttachment(file, rules);
    if (messages.length > 0) return refused(fieldsRefusal({ [field.name]: messages }, locale));
    return { ok: true as const, file };
  }

  const localeOf = (context: RecordRouteContext) =>
    context.locale ? { locale: context.locale } : {};
  const encodeFile = (field: Field, row: RecordRow) => encodeRecord([childFileField(field)], row);

  async function fileOf(context: RecordContext, parent: RecordRow, field: Field, id?: string) {
    const fileId = pathId(id);
    if (fileId === undefined) return undefined;
    const files = await store.listFiles(context.ownerId, parent.id as number, field.name);
    const row = files.find((file) => file.id === fileId);
    return row && attachedFile(row, childAttachmentName(field));
  }

  const handlers: JsonAttachmentRoutes = {
    async downloadAttachment(request, context) {
      const found = await target(context, "attachment");
      const file = found && attachedFile(found.row, found.field.name);
      return (
        (file &&
          (await downloadResponse(writes.storage(), file, { request, ...localeOf(context) }))) ??
        notFound(context.locale)
      );
    },

    async uploadAttachment(request, context) {
      const found = await target(context, "attachment");
      if (!found) return notFound(context.locale);
      const upload = await readUpload(request, found.field, context.locale);
      if (!upload.ok) return upload.response;
      const updated = await writes.update(context.ownerId, found.key, {}, undefined, [
        { field: found.field.name, file: upload.file },
      ]);
      if (!updated.ok) return writeRefusal(updated, context.locale);
      return jsonAnswer(encodeRecord(model.fields, updated.row), { locale: context.locale });
    },

    async deleteAttachment(_request, context) {
      const found = await target(context, "attachment");
      if (!found || !attachedFile(found.row, found.field.name)) return notFound(context.locale);
      if (!found.field.optional)
        return fieldsRefusal({ [found.field.name]: [BLANK] }, context.locale);
      const values = attachmentValues(found.field.name, null);
      const updated = await writes.update(context.ownerId, found.key, values, undefined);
      return updated.ok
        ? new Response(null, { status: 204 })
        : writeRefusal(updated, context.locale);
    },

    async listFiles(_request, context) {
      const found = await target(context, "attachments");
      if (!found) return notFound(context.locale);
      const files = await store.listFiles(
        context.ownerId,
        found.row.id as number,
        found.field.name,
      );
      const listed = files.map((row) => encodeFile(found.field, row));
      return jsonAnswer(listed, { locale: context.locale });
    },

    async addFile(request, context) {
      const found = await target(context, "attachments");
      if (!found) return notFound(context.locale);
      const upload = await readUpload(request, found.field, context.locale);
      if (!upload.ok) return upload.response;
      const parentId = found.row.id as number;
      const row = await writes.addFile(context.ownerId, parentId, found.field.name, upload.file);
      if (!row) return notFound(context.locale);
      return jsonAnswer(encodeFile(found.field, row), { status: 201, locale: context.locale });
    },

    async downloadFile(request, context) {
      const found = await target(context, "attachments");
      const file = found && (await fileOf(context, found.row, found.field, context.params.file_id));
      return (
        (file &&
          (await downloadResponse(writes.storage(), file, { request, ...localeOf(context) }))) ??
        notFound(context.locale)
      );
    },

    async deleteFile(_request, context) {
      const found = await target(context, "attachments");
      const fileId = pathId(context.params.file_id);
      if (!found || fileId === undefined) return notFound(context.locale);
      const parentId = found.row.id as number;
      const row = await store.deleteFile(context.ownerId, parentId, found.field.name, fileId);
      const file = row && attachedFile(row, childAttachmentName(found.field));
      if (!file) return notFound(context.locale);
      await writes.discard([file.key]);
      return new Response(null, { status: 204 });
    },

    async deleteFiles(_request, context) {
      const found = await target(context, "attachments");
      if (!found) return notFound(context.locale);
      const name = childAttachmentName(found.field);
      const parentId = found.row.id as number;
      const rows = await store.deleteFiles(context.ownerId, parentId, found.field.name);
      // The rows are gone first, so no answer can name an object that is being deleted.
      await writes.discard(rows.flatMap((row) => attachedFile(row, name)?.key ?? []));
      return new Response(null, { status: 204 });
    },
  };

  const base = `${jsonRecordsPath(model, pathPrefix)}/:id`;
  const routes: Route<RecordRouteContext>[] = [];
  const bound =
    (handler: RouteHandler<RecordRouteContext>, name: string): RouteHandler<RecordRouteContext> =>
    (request, context) =>
      handler(request, { ...context, params: { ...context.params, name } });
  for (const field of model.fields) {
    const path = `${base}/${field.name}`;
    if (field.type === "attachment") {
      routes.push(
        { method: "GET", path, handle: bound(handlers.downloadAttachment, field.name) },
        { method: "PUT", path, handle: bound(handlers.uploadAttachment, field.name) },
        { method: "DELETE", path, handle: bound(handlers.deleteAttachment, field.name) },
      );
    } else if (field.type === "attachments") {
      const filePath = `${path}/:file_id`;
      routes.push(
        { method: "GET", path, handle: bound(handlers.listFiles, field.name) },
        { method: "POST", path, handle: bound(handlers.addFile, field.name) },
        { method: "DELETE", path, handle: bound(handlers.deleteFiles, field.name) },
        { method: "GET", path: filePath, handle: bound(handlers.downloadFile, field.name) },
        { method: "DELETE", path: filePath, handle: bound(handlers.deleteFile, field.name) },
      );
    }
  }
  return routes;
}

const MULTIPART_REASONS = {
  "not-multipart": "expected `Content-Type: multipart/form-data`",
  unreadable: "the body could not be read",
  malformed: "the body is not valid multipart/form-data",
} as const;

/** The 413 refusals of a multipart body over a bound on its parts: diagnostics, in English. */
const TOO_MANY_PARTS_MESSAGES = {
  "too-many-parts": `The multipart body has more than ${DEFAULT_MAXIMUM_MULTIPART_PARTS} parts`,
  "too-many-parts-per-name": `The multipart body has more than ${DEFAULT_MAXIMUM_PARTS_PER_NAME} parts of one name`,
} as const;

function refused(response: Response) {
  return { ok: false as const, response };
}
