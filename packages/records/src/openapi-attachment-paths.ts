import type { Field, Model } from "@tessera/fields";
import { childFileField } from "./json-attachment-routes.js";
import { jsonRecordsPath } from "./json-record-paths.js";
import { errorAnswers, idParameter, jsonAnswer } from "./openapi-answers.js";
import { componentRef, type OpenApiObject } from "./openapi-components.js";
import { fileSchemaName, modelSchemaNames, operationId } from "./openapi-names.js";

const ETAG_HEADER: OpenApiObject = {
  description: "The file's strong entity tag: the same while the file is the same.",
  required: true,
  schema: { type: "string" },
};

/** A stored file as a download answers it. */
const DOWNLOAD: OpenApiObject = {
  description:
    "The file as stored, with the content type recorded at upload, `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`. A `HEAD` answers the same headers without the bytes.",
  headers: {
    "Content-Disposition": { schema: { type: "string" } },
    ETag: ETAG_HEADER,
    "Accept-Ranges": { required: true, schema: { type: "string", const: "bytes" } },
  },
  content: { "*/*": { schema: { type: "string", contentMediaType: "application/octet-stream" } } },
};

/** The answers of a download: the file, a part of it, not modified, or a range outside it. */
const DOWNLOAD_ANSWERS: OpenApiObject = {
  "200": DOWNLOAD,
  "206": {
    description: "The one range asked for in `Range`, with the headers of the whole file.",
    headers: {
      "Content-Range": {
        description: "`bytes <first>-<last>/<size>`.",
        required: true,
        schema: { type: "string", pattern: "^bytes [0-9]+-[0-9]+/[0-9]+$" },
      },
      ETag: ETAG_HEADER,
    },
    content: {
      "*/*": { schema: { type: "string", contentMediaType: "application/octet-stream" } },
    },
  },
  "304": {
    description: "`If-None-Match` names the current file: no body.",
    headers: { ETag: ETAG_HEADER },
  },
  ...errorAnswers("unauthorized", "notFound", "rangeNotSatisfiable"),
};

/** The request headers a download reads (RFC 9110). */
const DOWNLOAD_PARAMETERS: OpenApiObject[] = [
  {
    name: "Range",
    in: "header",
    required: false,
    description:
      "One byte range: `bytes=<first>-<last>`, `bytes=<first>-` or `bytes=-<suffix length>` (a 206). A malformed value, another unit, or several ranges get the whole file (200).",
    schema: { type: "string" },
  },
  {
    name: "If-None-Match",
    in: "header",
    required: false,
    description:
      "ETags of copies the client holds, or `*`: a 304 when one is the current file's (weak comparison).",
    schema: { type: "string" },
  },
  {
    name: "If-Range",
    in: "header",
    required: false,
    description:
      "The ETag the client's part came from: `Range` is honoured only while it is the current file's (strong comparison); otherwise the whole file.",
    schema: { type: "string" },
  },
];

/** A multipart body with the file in part `file` (the last non-empty one counts). */
const UPLOAD: OpenApiObject = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object",
        properties: { file: { type: "string", contentMediaType: "application/octet-stream" } },
        required: ["file"],
      },
    },
  },
};

const UPLOAD_REFUSALS =
  " A body that is not multipart is a 400; no file, a file over the size limit or of a type not allowed is a 422 on the field's name.";

function singlePaths(model: Model, field: Field): OpenApiObject {
  const tags = [model.table];
  const words = [model.name, field.name];
  return {
    parameters: [idParameter(model)],
    get: {
      operationId: operationId("get", ...words),
      tags,
      summary: `Download the ${field.name} of a ${model.name}`,
      parameters: DOWNLOAD_PARAMETERS,
      responses: DOWNLOAD_ANSWERS,
    },
    put: {
      operationId: operationId("put", ...words),
      tags,
      summary: `Store or replace the ${field.name} of a ${model.name}`,
      description: `The old file, if any, is deleted.${UPLOAD_REFUSALS}`,
      requestBody: UPLOAD,
      responses: {
        "200": jsonAnswer(
          `The ${model.name} with its new file.`,
          componentRef("schemas", modelSchemaNames(model).record),
        ),
        ...errorAnswers("badRequest", "unauthorized", "notFound", "validationFailed"),
      },
    },
    delete: {
      operationId: operationId("delete", ...words),
      tags,
      summary: `Delete the ${field.name} of a ${model.name}`,
      description: field.optional
        ? "404 when there is no file."
        : "404 when there is no file; a required attachment cannot be deleted (422 `can't be blank`).",
      responses: {
        "204": { description: "Deleted." },
        ...errorAnswers(
          "unauthorized",
          "notFound",
          ...(field.optional ? [] : (["validationFailed"] as const)),
        ),
      },
    },
  };
}

function multiplePaths(model: Model, field: Field, path: string): Record<string, OpenApiObject> {
  const tags = [model.table];
  const file = componentRef("schemas", fileSchemaName(model, field));
  const singular = childFileField(field).name;
  return {
    [path]: {
      parameters: [idParameter(model)],
      get: {
        operationId: operationId("list", model.name, field.name),
        tags,
        summary: `The ${field.name} of a ${model.name}, oldest first`,
        responses: {
          "200": jsonAnswer(`The ${field.name}.`, { type: "array", items: file }),
          ...errorAnswers("unauthorized", "notFound"),
        },
      },
      post: {
        operationId: operationId("add", model.name, singular),
        tags,
        summary: `Add a file to the ${field.name} of a ${model.name}`,
        description: UPLOAD_REFUSALS.trim(),
        requestBody: UPLOAD,
        responses: {
          "201": jsonAnswer("The new file.", file),
          ...errorAnswers("badRequest", "unauthorized", "notFound", "validationFailed"),
        },
      },
      delete: {
        operationId: operationId("delete", model.name, field.name),
        tags,
        summary: `Delete every file of the ${field.name} of a ${model.name}`,
        description:
          "Removes every file row and its stored object; the record itself is not changed. 204 also when there were none.",
        responses: {
          "204": { description: "Deleted." },
          ...errorAnswers("unauthorized", "notFound"),
        },
      },
    },
    [`${path}/{file_id}`]: {
      parameters: [
        idParameter(model),
        {
          name: "file_id",
          in: "path",
          required: true,
          description: "The file's `id`.",
          schema: { type: "integer", minimum: 1 },
        },
      ],
      get: {
        operationId: operationId("get", model.name, singular),
        tags,
        summary: `Download one file of the ${field.name} of a ${model.name}`,
        parameters: DOWNLOAD_PARAMETERS,
        responses: DOWNLOAD_ANSWERS,
      },
      delete: {
        operationId: operationId("delete", model.name, singular),
        tags,
        summary: `Delete one file of the ${field.name} of a ${model.name}`,
        responses: {
          "204": { description: "Deleted." },
          ...errorAnswers("unauthorized", "notFound"),
        },
      },
    },
  };
}

/**
 * The attachment routes of a model: `/api/<table>/{id}/<name>` for a single attachment
 * (download, store, delete), and for an `attachments` field (list, add, delete all) and its
 * `/{file_id}` (download and delete one file).
 */
export function attachmentPaths(model: Model): Record<string, OpenApiObject> {
  const paths: Record<string, OpenApiObject> = {};
  for (const field of model.fields) {
    const path = `${jsonRecordsPath(model)}/{id}/${field.name}`;
    if (field.type === "attachment") paths[path] = singlePaths(model, field);
    if (field.type === "attachments") Object.assign(paths, multiplePaths(model, field, path));
  }
  return paths;
}
