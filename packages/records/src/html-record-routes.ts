import {
  type AttachmentRules,
  childAttachmentName,
  DEFAULT_ATTACHMENT_RULES,
  decodeForm,
  type FieldMessages,
  type FormFile,
  type FormInput,
  fullMessage,
  type Model,
  prepareRichText,
} from "@tessera/fields";
import {
  authenticated,
  bodyLimit,
  filledPath,
  htmlPage,
  type PageContext,
  parseMediaType,
  pathId,
  type Route,
  type RouteContext,
  type RouteHandler,
  readFormBody,
  readListPage,
  seeOther,
  withMiddleware,
} from "@tessera/http";
import {
  type HtmlRouteContext,
  type MaybeSessionContext,
  type PageRequest,
  pageSafety,
  sessionPageContext,
} from "@tessera/session";
import { attachedFile, downloadResponse } from "./attachment-download.js";
import { storedValues, typedValues } from "./form-inputs.js";
import { recordPages } from "./html-record-pages.js";
import {
  DEFAULT_MAXIMUM_MULTIPART_PARTS,
  DEFAULT_MAXIMUM_PARTS_PER_NAME,
  readMultipartBody,
} from "./multipart-body.js";
import { pageRefusals } from "./page-refusals.js";
import { recordKeyOf, routeIdOf } from "./record-key.js";
import { type RecordMessageId, recordFlash, recordMessages } from "./record-messages.js";
import type { HtmlRecordContext, HtmlRecordRoutesOptions } from "./record-options.js";
import { type RecordAction, recordScopeOf, withCreator } from "./record-owner.js";
import type { RecordRow, StoredFile } from "./record-store.js";
import { recordWrites } from "./record-writes.js";

const MiB = 1024 * 1024;

/** Default cap of an urlencoded form body: room for a 2,000,000-byte value once escaped. */
export const DEFAULT_MAXIMUM_URLENCODED_BYTES = 4 * MiB;

/** Default cap of a multipart form body: the only forms with files, held in memory whole. */
export const DEFAULT_MAXIMUM_MULTIPART_BYTES = 64 * MiB;

type Handler = RouteHandler<HtmlRecordContext>;

/**
 * The HTML pages of a model: `GET /<plural>` (the owner's records, newest first, 50 a page,
 * `?limit=&offset=`), `GET /<plural>/new`, `POST /<plural>` (303 to the record with `Post was
 * created.`; 422 re-renders the form), `GET /<plural>/:id`, `GET /<plural>/:id/edit`,
 * `POST /<plural>/:id` (303 with `Post was updated.`; 422, or 409 on a stale version),
 * `POST /<plural>/:id/delete` (303 to the listing with `Post was deleted.`), and a download
 * route per attachment. Every page needs a signed-in user (`authenticate`); like every HTML
 * route group, they open their own cookie session and refuse cross-site posts, so they are
 * safe mounted anywhere.
 * An organization's model (`owner: "organization"`) is served under its `scope`'s prefix
 * (`/orgs/:slug/projects`), each page passing the scope's check for its action (a form to
 * create or edit asks for the right to create or update): its refusal, a 404 for a stranger or
 * a 403 naming the permission, is answered as a page of the same status.
 * @throws {TypeError} when the model has attachments and no `storage` is given, or `scope` is
 * not for the model's owner.
 */
export function htmlRecordRoutes<M extends Model>(
  options: HtmlRecordRoutesOptions<M>,
): Route<MaybeSessionContext>[] {
  const { model, store } = options;
  const scope = recordScopeOf(model, options.scope);
  const writes = recordWrites(options);
  const rulesOf = (name: string): AttachmentRules =>
    options.attachmentRules?.[name] ?? DEFAULT_ATTACHMENT_RULES;
  const editor = options.richTextEditor ?? "textarea";
  const maximumUrlencodedBytes = options.maximumUrlencodedBytes ?? DEFAULT_MAXIMUM_URLENCODED_BYTES;
  const maximumMultipartBytes = options.maximumMultipartBytes ?? DEFAULT_MAXIMUM_MULTIPART_BYTES;
  const base = `${scope.pathPrefix}/${model.table}`;
  /** The model's path for this request: the scope's parameters (`:slug`) filled in. */
  const baseOf = (context: PageAsker) => filledPath(base, context.params);
  // A user's pages have one path, rendered by one set of pages; an organization's one per slug.
  const userPages =
    scope.pathPrefix === "" && recordPages(model, options.layout, rulesOf, editor, base);
  const pagesOf = (context: PageAsker) =>
    userPages || recordPages(model, options.layout, rulesOf, editor, baseOf(context));
  const decodeOptions = {
    attachmentRules: options.attachmentRules ?? {},
    ...(options.newPublicId ? { newPublicId: options.newPublicId } : {}),
  };

  const pageContext = (context: PageAsker): PageContext =>
    sessionPageContext(context, context.user.email);
  /** A page with a heading and one sentence, both in the request's language. */
  const messagePage = (
    status: number,
    context: PageAsker,
    heading: RecordMessageId,
    text: RecordMessageId | { readonly verbatim: string },
    params?: Readonly<Record<string, string>>,
  ) => {
    const sentence =
      typeof text === "string" ? recordMessages.text(context.locale, text, params) : text.verbatim;
    const title = recordMessages.text(context.locale, heading);
    return htmlPage(status, pagesOf(context).message(pageContext(context), title, sentence));
  };
  const notFound = (context: PageAsker) =>
    messagePage(404, context, "records.not_found", "records.no_such_record");
  // The account was deleted while this request was in flight; its records went with it.
  const ownerGone = (context: HtmlRecordContext) =>
    messagePage(404, context, "records.not_found", "records.account_gone");

  const download = (request: Request, context: HtmlRecordContext, file: StoredFile) =>
    downloadResponse(writes.storage(), file, {
      request,
      rangeNotSatisfiable: () =>
        messagePage(416, context, "records.range_not_satisfiable", "records.range_outside_file"),
    });

  async function owned(context: HtmlRecordContext) {
    const key = recordKeyOf(model, context.params.id);
    const row = key && (await store.find(context.ownerId, key));
    return key && row ? { key, row } : undefined;
  }

  /** The cap of a form body: only a multipart form (the one kind with files) may be large. */
  const isMultipart = (request: Request) =>
    parseMediaType(request.headers.get("content-type"))?.essence === "multipart/form-data";
  const formLimitOf = (request: Request) =>
    isMultipart(request) ? maximumMultipartBytes : maximumUrlencodedBytes;
  const formTooLarge = (context: PageAsker, maximumBytes: number) =>
    messagePage(413, context, "records.form_too_large", "records.form_larger_than", {
      size: describeBytes(maximumBytes),
    });

  const formTooManyParts = (
    context: HtmlRecordContext,
    reason: "too-many-parts" | "too-many-parts-per-name",
  ) =>
    reason === "too-many-parts"
      ? messagePage(413, context, "records.form_too_large", "records.form_too_many_parts", {
          count: String(DEFAULT_MAXIMUM_MULTIPART_PARTS),
        })
      : messagePage(413, context, "records.form_too_large", "records.form_too_many_per_field", {
          count: String(DEFAULT_MAXIMUM_PARTS_PER_NAME),
        });

  /**
   * The submitted form, urlencoded or multipart, or the page answering an unreadable one. The
   * cap holds before any parsing; a form whose `Content-Length` declares more was refused by
   * the routes' body limit before the handler ran. A multipart form is parsed as it streams in
   * and refused (413) at its first part past the bounds on parts, before the rest is read.
   */
  async function readForm(request: Request, context: HtmlRecordContext) {
    const maximumBytes = formLimitOf(request);
    const body: { ok: true; value: FormInput<FormFile> } | { ok: false; reason: string } =
      isMultipart(request)
        ? await readMultipartBody(request, maximumBytes)
        : await readFormBody(request, { maximumBytes });
    if (body.ok) return body;
    if (body.reason === "too-large")
      return { ok: false as const, response: formTooLarge(context, maximumBytes) };
    if (body.reason === "too-many-parts" || body.reason === "too-many-parts-per-name") {
      return { ok: false as const, response: formTooManyParts(context, body.reason) };
    }
    const response = messagePage(400, context, "records.bad_request", "records.form_unreadable");
    return { ok: false as const, response };
  }

  const handlers = {
    async index(request, context) {
      const page = readListPage(new URL(request.url));
      if (!page.ok) {
        // The query's diagnostic is for whoever wrote the link, so it stays as written.
        return messagePage(400, context, "records.bad_request", { verbatim: `${page.reason}.` });
      }
      const rows = await store.list(context.ownerId, page.value);
      return htmlPage(200, pagesOf(context).index(pageContext(context), rows, page.value));
    },

    async newForm(_request, context) {
      return htmlPage(
        200,
        pagesOf(context).newForm(pageContext(context), { values: {}, errors: {} }),
      );
    },

    async create(request, context) {
      const form = await readForm(request, context);
      if (!form.ok) return form.response;
      const refused = (errors: FieldMessages) =>
        htmlPage(
          422,
          pagesOf(context).newForm(pageContext(context), {
            values: typedValues(model.fields, form.value),
            errors,
          }),
        );
      const richText = await prepareRichText(model.fields, form.value);
      const decoded = decodeForm(model.fields, form.value, {
        ...decodeOptions,
        mode: "create",
        richText,
      });
      if (!decoded.ok) return refused(decoded.status === 422 ? decoded.fields : {});
      const { values, uploads } = decoded.value;
      const created = await writes.create(context.ownerId, withCreator(values, context), uploads);
      if (!created.ok) {
        return created.reason === "owner-missing" ? ownerGone(context) : refused(created.fields);
      }
      context.session.flash("notice", recordFlash(model, "created", context.locale));
      return seeOther(`${baseOf(context)}/${encodeURIComponent(routeIdOf(model, created.row))}`);
    },

    async show(_request, context) {
      const found = await owned(context);
      if (!found) return notFound(context);
      const files: Record<string, RecordRow[]> = {};
      for (const field of model.fields) {
        if (field.type !== "attachments") continue;
        files[field.name] = await store.listFiles(
          context.ownerId,
          found.row.id as number,
          field.name,
        );
      }
      const richText = await prepareRichText(model.fields, found.row);
      return htmlPage(200, pagesOf(context).show(pageContext(context), found.row, files, richText));
    },

    async edit(_request, context) {
      const found = await owned(context);
      if (!found) return notFound(context);
      const state = { values: storedValues(model.fields, found.row), errors: {} };
      return htmlPage(200, pagesOf(context).editForm(pageContext(context), found.row, state));
    },

    async update(request, context) {
      const found = await owned(context);
      if (!found) return notFound(context);
      const form = await readForm(request, context);
      if (!form.ok) return form.response;
      const refused = (status: number, errors: FieldMessages, message?: string) => {
        const state = { values: typedValues(model.fields, form.value), errors };
        return htmlPage(
          status,
          pagesOf(context).editForm(pageContext(context), found.row, state, message),
        );
      };
      const richText = await prepareRichText(model.fields, form.value);
      const decoded = decodeForm(model.fields, form.value, {
        ...decodeOptions,
        mode: "update",
        richText,
      });
      if (!decoded.ok) return refused(422, decoded.status === 422 ? decoded.fields : {});
      const { values, uploads, lockVersion } = decoded.value;
      const updated = await writes.update(context.ownerId, found.key, values, lockVersion, uploads);
      if (!updated.ok) {
        if (updated.reason === "invalid") return refused(422, updated.fields);
        if (updated.reason === "stale")
          return refused(409, {}, recordMessages.text(context.locale, "records.stale_record"));
        return updated.reason === "owner-missing" ? ownerGone(context) : notFound(context);
      }
      context.session.flash("notice", recordFlash(model, "updated", context.locale));
      return seeOther(`${baseOf(context)}/${encodeURIComponent(routeIdOf(model, updated.row))}`);
    },

    async delete(_request, context) {
      const key = recordKeyOf(model, context.params.id);
      const removed = key && (await writes.remove(context.ownerId, key));
      if (!removed || (!removed.ok && removed.reason === "not-found")) return notFound(context);
      if (!removed.ok) {
        // The delete button has no fields of its own: the refusal is said on the record's page.
        for (const [field, messages] of Object.entries(removed.fields)) {
          for (const message of messages)
            context.session.flash("alert", fullMessage(field, message, context.locale));
        }
        return seeOther(`${baseOf(context)}/${encodeURIComponent(context.params.id ?? "")}`);
      }
      context.session.flash("notice", recordFlash(model, "deleted", context.locale));
      return seeOther(baseOf(context));
    },

    async downloadAttachment(request, context) {
      const field = fieldNamed(model, context.params.name, "attachment");
      const found = field && (await owned(context));
      const file = found && attachedFile(found.row, context.params.name!);
      return (file && (await download(request, context, file))) ?? notFound(context);
    },

    async downloadFile(request, context) {
      const field = fieldNamed(model, context.params.name, "attachments");
      const fileId = pathId(context.params.file_id);
      const found = field && fileId !== undefined && (await owned(context));
      if (!field || !found) return notFound(context);
      const files = await store.listFiles(context.ownerId, found.row.id as number, field.name);
      const row = files.find((each) => each.id === fileId);
      const file = row && attachedFile(row, childAttachmentName(field));
      return (file && (await download(request, context, file))) ?? notFound(context);
    },
  } satisfies Record<string, Handler>;

  const bound =
    (handler: Handler, name: string): Handler =>
    (request, context) =>
      handler(request, { ...context, params: { ...context.params, name } });
  // Each page with the action it needs: a form asks for what submitting it does.
  const routes: [Route<HtmlRecordContext>, RecordAction][] = [
    [{ method: "GET", path: base, handle: handlers.index }, "read"],
    [{ method: "GET", path: `${base}/new`, handle: handlers.newForm }, "create"],
    [{ method: "POST", path: base, handle: handlers.create }, "create"],
    [{ method: "GET", path: `${base}/:id`, handle: handlers.show }, "read"],
    [{ method: "GET", path: `${base}/:id/edit`, handle: handlers.edit }, "update"],
    [{ method: "POST", path: `${base}/:id`, handle: handlers.update }, "update"],
    [{ method: "POST", path: `${base}/:id/delete`, handle: handlers.delete }, "delete"],
  ];
  for (const field of model.fields) {
    const path = `${base}/:id/${field.name}`;
    if (field.type === "attachment") {
      const handle = bound(handlers.downloadAttachment, field.name);
      routes.push([{ method: "GET", path, handle }, "read"]);
    } else if (field.type === "attachments") {
      const handle = bound(handlers.downloadFile, field.name);
      routes.push([{ method: "GET", path: `${path}/:file_id`, handle }, "read"]);
    }
  }
  const refusalPage = (status: number, context: SignedInPage, message: string) =>
    status === 404
      ? notFound(context)
      : messagePage(status, context, "records.not_allowed", { verbatim: message });
  return withMiddleware(
    routes.flatMap(([route, action]) =>
      withMiddleware(
        [route],
        pageRefusals<SignedInPage>(scope.ownerFor(action, model), refusalPage),
      ),
    ),
    pageSafety(options),
    authenticated<{ readonly user: HtmlRecordContext["user"] }, HtmlRouteContext>(
      options.authenticate,
    ),
    // Before a handler looks anything up: a declared oversized form is refused unread.
    bodyLimit<SignedInPage>({
      maximumBytes: formLimitOf,
      refusal: (_request, context, maximumBytes) => formTooLarge(context, maximumBytes),
    }),
  );
}

/** A page request once its user is signed in, before its records' owner is known. */
type SignedInPage = HtmlRouteContext & { readonly user: HtmlRecordContext["user"] };

/** What a page of a request is written from: its session, nonce, language, path and user. */
type PageAsker = PageRequest &
  Pick<RouteContext, "params"> & {
    readonly user: { readonly email: string };
  };

/** `4 MB` for whole mebibytes, else the exact byte count. */
function describeBytes(bytes: number): string {
  return bytes % MiB === 0 ? `${bytes / MiB} MB` : `${bytes} bytes`;
}

function fieldNamed(model: Model, name: string | undefined, type: "attachment" | "attachments") {
  return model.fields.find((field) => field.name === name && field.type === type);
}
