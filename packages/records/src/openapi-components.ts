// The parts every record route shares in the OpenAPI document: the error envelope, the error
// answers, the list parameters and the bearer scheme. Messages come from the packages that
// send them, so the examples are the answers word for word.
import type { JsonSchema } from "@tessera/fields";
import {
  AFTER_MESSAGE,
  DEFAULT_LIST_LIMIT,
  type ErrorEnvelope,
  errorEnvelope,
  JSON_BODY_FAILURE_PREFIX,
  MAXIMUM_LIST_LIMIT,
  NOT_FOUND_MESSAGE,
  UNAUTHORIZED_MESSAGE,
  VALIDATION_FAILED_MESSAGE,
} from "@tessera/http";
import { RANGE_NOT_SATISFIABLE_MESSAGE } from "./attachment-download.js";
import { STALE_RECORD, STALE_RECORD_MESSAGE } from "./record-messages.js";

/** An OpenAPI object as plain data (the same shape as a JSON Schema). */
export type OpenApiObject = JsonSchema;

/** The name of the bearer security scheme in `components.securitySchemes`. */
export const BEARER_SCHEME = "bearerAuth";

/** Names of the shared answers in `components.responses`. */
export const ERROR_RESPONSES = {
  badRequest: "BadRequest",
  unauthorized: "Unauthorized",
  forbidden: "Forbidden",
  notFound: "NotFound",
  conflict: "Conflict",
  validationFailed: "ValidationFailed",
  rangeNotSatisfiable: "RangeNotSatisfiable",
} as const;

/** A `$ref` to `components.<section>.<name>`. */
export function componentRef(section: string, name: string): OpenApiObject {
  return { $ref: `#/components/${section}/${name}` };
}

const FIELD_MESSAGES: JsonSchema = {
  type: "object",
  description: "Each failing input name with all of its messages.",
  additionalProperties: { type: "array", items: { type: "string" }, minItems: 1 },
};

/** The envelope `{"error":{"code","message","status","fields"?}}`; a 422 always has `fields`. */
function envelopeSchema(validation: boolean): JsonSchema {
  const error: JsonSchema = {
    type: "object",
    properties: {
      code: validation
        ? { const: "validation_failed" }
        : {
            type: "string",
            pattern: "^[a-z]+(_[a-z]+)*$",
            description: "A stable snake_case word for programs to act on; the message may change.",
          },
      message: validation ? { const: VALIDATION_FAILED_MESSAGE } : { type: "string" },
      status: validation ? { const: 422 } : { type: "integer", minimum: 400, maximum: 599 },
      fields: FIELD_MESSAGES,
    },
    required: validation ? ["code", "message", "status", "fields"] : ["code", "message", "status"],
    additionalProperties: false,
  };
  return {
    type: "object",
    properties: { error },
    required: ["error"],
    additionalProperties: false,
  };
}

/** `components.schemas` entries of the error envelope: `Error` and `ValidationError`. */
export const ERROR_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Error: envelopeSchema(false),
  ValidationError: envelopeSchema(true),
};

function errorAnswer(
  description: string,
  envelope: ErrorEnvelope,
  schema = "Error",
): OpenApiObject {
  // The envelope interface has no index signature; its copy as a type literal is plain JSON.
  const { code, message, status, fields } = envelope.error;
  const example = { error: { code, message, status, ...(fields ? { fields } : {}) } };
  return {
    description,
    content: {
      "application/json": { schema: componentRef("schemas", schema), example },
    },
  };
}

/** `components.responses`: the error answers of the record routes. */
export function errorResponses(maximumJsonBytes: number): Readonly<Record<string, OpenApiObject>> {
  return {
    [ERROR_RESPONSES.badRequest]: errorAnswer(
      `A request that cannot be read: a JSON body that is not \`application/json\` in UTF-8, larger than ${maximumJsonBytes} bytes, not JSON, not an object, without a required key, with a value of the wrong JSON type or an enum value outside its list (\`${JSON_BODY_FAILURE_PREFIX}<reason>\`); a file upload that is not multipart; a bad \`limit\`, \`offset\` or \`after\`.`,
      errorEnvelope(400, `${JSON_BODY_FAILURE_PREFIX}missing field \`title\``),
    ),
    [ERROR_RESPONSES.unauthorized]: {
      ...errorAnswer(
        "Missing, malformed, expired or revoked credentials; or the account was deleted while the request ran.",
        errorEnvelope(401, UNAUTHORIZED_MESSAGE),
      ),
      headers: {
        "WWW-Authenticate": { schema: { type: "string", const: "Bearer" } },
      },
    },
    [ERROR_RESPONSES.forbidden]: errorAnswer(
      "A member of the organization whose role lacks the permission the route needs (named in the message: `<table>:read`, `:create`, `:update` or `:delete`, which the role's `records:<action>` also grants).",
      errorEnvelope(403, "You need the projects:delete permission.", { code: "forbidden" }),
    ),
    [ERROR_RESPONSES.notFound]: errorAnswer(
      "No such record (or file) of yours: another user's answers the same.",
      errorEnvelope(404, NOT_FOUND_MESSAGE),
    ),
    [ERROR_RESPONSES.conflict]: errorAnswer(
      "The `lock_version` sent is not the stored one: nothing was changed.",
      errorEnvelope(409, STALE_RECORD_MESSAGE, { code: STALE_RECORD }),
    ),
    [ERROR_RESPONSES.validationFailed]: errorAnswer(
      "Every failing field at once, with its messages.",
      errorEnvelope(422, VALIDATION_FAILED_MESSAGE, { fields: { title: ["can't be blank"] } }),
      "ValidationError",
    ),
    [ERROR_RESPONSES.rangeNotSatisfiable]: {
      ...errorAnswer(
        "A download's `Range` holds no byte of the file: it starts at or past the end, or is `bytes=-0`.",
        errorEnvelope(416, RANGE_NOT_SATISFIABLE_MESSAGE),
      ),
      headers: {
        "Content-Range": {
          description: "`bytes */<size>`: the file's length.",
          required: true,
          schema: { type: "string", pattern: "^bytes \\*/[0-9]+$" },
        },
      },
    },
  };
}

/** `components.parameters`: a listing's `limit`, `offset` and `after`. */
export const LIST_PARAMETERS: Readonly<Record<string, OpenApiObject>> = {
  limit: {
    name: "limit",
    in: "query",
    description: `Records per page, plain decimal digits (default ${DEFAULT_LIST_LIMIT}).`,
    schema: {
      type: "integer",
      minimum: 1,
      maximum: MAXIMUM_LIST_LIMIT,
      default: DEFAULT_LIST_LIMIT,
    },
  },
  offset: {
    name: "offset",
    in: "query",
    description: "Records to skip, plain decimal digits (default 0). Not with `after`.",
    schema: { type: "integer", minimum: 0, default: 0 },
  },
  after: {
    name: "after",
    in: "query",
    description: `Keyset paging: only records whose id is below this one, the last id of the page before (${AFTER_MESSAGE} otherwise). Not with \`offset\`.`,
    schema: { type: "integer", minimum: 1 },
  },
};

/** `components.securitySchemes.bearerAuth`. */
export function bearerScheme(description: string): OpenApiObject {
  return { type: "http", scheme: "bearer", description };
}
