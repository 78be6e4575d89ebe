// The parts every record route shares in the OpenAPI document: the error envelope, the error
// answers, the list parameters and the bearer scheme. Messages come from the packages that
// send them, so the examples are the answers word for word.
import type { JsonSchema } from "@tessera/fields";
import {
  AFTER_MESSAGE,
  DEFAULT_LIST_LIMIT,
  errorEnvelope,
  MAXIMUM_LIST_LIMIT,
  openApiErrorPart,
  openApiErrorResponse,
} from "@tessera/http";
import { recordMessages, STALE_RECORD } from "./record-messages.js";

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

/**
 * `components.schemas` and `components.responses` of the record routes: the envelope and the
 * answers every JSON API shares (`openApiErrorPart` of @tessera/http), and the record routes' own
 * 403, 409 and 416.
 */
export function errorComponents(maximumJsonBytes: number): {
  readonly schemas: Readonly<Record<string, JsonSchema>>;
  readonly responses: Readonly<Record<string, JsonSchema>>;
} {
  // The shared part is plain JSON data built from literals: JSON Schema values throughout.
  const shared = openApiErrorPart(maximumJsonBytes);
  const responses = {
    ...shared.responses,
    [ERROR_RESPONSES.forbidden]: openApiErrorResponse(
      "A member of the organization whose role lacks the permission the route needs (named in the message: `<table>:read`, `:create`, `:update` or `:delete`, which the role's `records:<action>` also grants).",
      errorEnvelope(403, "You need the projects:delete permission.", { code: "forbidden" }),
    ),
    [ERROR_RESPONSES.conflict]: openApiErrorResponse(
      "The `lock_version` sent is not the stored one: nothing was changed.",
      errorEnvelope(409, recordMessages.english["records.stale_record"], { code: STALE_RECORD }),
    ),
    [ERROR_RESPONSES.rangeNotSatisfiable]: {
      ...openApiErrorResponse(
        "A download's `Range` holds no byte of the file: it starts at or past the end, or is `bytes=-0`.",
        errorEnvelope(416, recordMessages.english["records.range_not_satisfiable"]),
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
  return {
    schemas: (shared.schemas ?? {}) as Readonly<Record<string, JsonSchema>>,
    responses: responses as Readonly<Record<string, JsonSchema>>,
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
