// The OpenAPI part of one job's JSON routes (`jsonJobRoutes`): every answer of the three routes
// a user calls, on the schemas of job-openapi-schemas.ts. The callback
// (`POST /webhooks/<name>/{id}`) is the service's, not a client's, and is left out.
import { errorEnvelope } from "@tessera/core";
import {
  AFTER_MESSAGE,
  DEFAULT_LIST_LIMIT,
  DEFAULT_MAXIMUM_BODY_BYTES,
  JSON_BODY_FAILURE_PREFIX,
  jsonContent,
  LIMIT_MESSAGE,
  MAXIMUM_LIST_LIMIT,
  OFFSET_AND_AFTER_MESSAGE,
  OFFSET_MESSAGE,
  type OpenApiObject,
  type OpenApiPart,
  openApiRef,
} from "@tessera/http";
import type { JobDefinition } from "./job-definition.js";
import { jobSchemaNames, jobSchemas, pascal } from "./job-openapi-schemas.js";

/** `limit`, `offset` and `after`, as `readListPage` reads them. */
const LIST_PARAMETERS: readonly OpenApiObject[] = [
  {
    name: "limit",
    in: "query",
    description: `Jobs per page, plain decimal digits (default ${DEFAULT_LIST_LIMIT}).`,
    schema: {
      type: "integer",
      minimum: 1,
      maximum: MAXIMUM_LIST_LIMIT,
      default: DEFAULT_LIST_LIMIT,
    },
  },
  {
    name: "offset",
    in: "query",
    description: "Jobs to skip, plain decimal digits (default 0). Not with `after`.",
    schema: { type: "integer", minimum: 0, default: 0 },
  },
  {
    name: "after",
    in: "query",
    description:
      "Keyset paging: only jobs whose id is below this one, the last id of the page before. Not with `offset`.",
    schema: { type: "integer", minimum: 1 },
  },
];

/** A 400 (`bad_request`) with `examples` (name → message) as the bodies the route answers. */
function badRequest(description: string, examples: Readonly<Record<string, string>>) {
  const schema = {
    allOf: [
      openApiRef("schemas", "Error"),
      {
        type: "object",
        properties: {
          error: {
            type: "object",
            properties: { code: { const: "bad_request" }, status: { const: 400 } },
          },
        },
      },
    ],
  };
  const values = Object.entries(examples).map(([name, message]) => [
    name,
    { value: errorEnvelope(400, message) },
  ]);
  return {
    description,
    content: { "application/json": { schema, examples: Object.fromEntries(values) } },
  };
}

/** The 400 of a start: the body unreadable, or the input refused by `decodeInput`. */
function startRefusal(definition: JobDefinition) {
  // The real refusal of an empty object: a missing required key, when there is one.
  const empty = definition.decodeInput({});
  const examples = !empty.ok && empty.status === 400 ? { missing_field: empty.message } : {};
  return badRequest(
    `A body that cannot be read (not \`application/json\` in UTF-8, over ${DEFAULT_MAXIMUM_BODY_BYTES} bytes, not JSON, not an object), or an input without a required key, with a value of the wrong JSON type, a number text that does not parse, an enum value outside its list, or a string holding a NUL or a lone surrogate: \`${JSON_BODY_FAILURE_PREFIX}<reason>\`.`,
    examples,
  );
}

/** The 422 of a start: the fields' rules, with `fields` among the inputs' names. */
function startValidation(definition: JobDefinition): OpenApiObject {
  const names = definition.inputs.flatMap((field) => field.columns);
  return {
    description:
      "Every input breaking its field's rules at once, with the messages of @tessera/fields: blank required text, a number out of range, a malformed date, time, decimal or uuid, text or JSON too long… Nothing is started.",
    ...jsonContent({
      allOf: [
        openApiRef("schemas", "ValidationError"),
        {
          type: "object",
          properties: {
            error: {
              type: "object",
              properties: { fields: { type: "object", propertyNames: { enum: names } } },
            },
          },
        },
      ],
    }),
  };
}

/**
 * The OpenAPI part of `definition`'s JSON routes as `jsonJobRoutes` serves them:
 * `POST /api/<name>_jobs` (the input body generated from the fields with `createJsonSchema` of
 * @tessera/fields; 201, 400, 401, 422), `GET /api/<name>_jobs` (paged, with its `Link`; 200,
 * 400, 401) and `GET /api/<name>_jobs/{id}` (200, 401, 404). Its components are
 * `<Name>Job` and `<Name>JobInput`; it refers to the shared answers `Unauthorized` and
 * `NotFound`, the schemas `Error` and `ValidationError` (`openApiErrorPart` of @tessera/http) and
 * the security scheme `bearerAuth`, which the app's document defines. The service's callback
 * `POST /webhooks/<name>/{id}` is not described: no client calls it.
 */
export function jobOpenApi(definition: JobDefinition): OpenApiPart {
  const name = pascal(definition.name);
  const names = jobSchemaNames(definition);
  const job = openApiRef("schemas", names.job);
  const tags = [definition.table];
  const base = `/api/${definition.table}`;
  const security = [{ bearerAuth: [] }];
  const unauthorized = openApiRef("responses", "Unauthorized");
  return {
    tags: [
      {
        name: definition.table,
        description: `The signed-in user's ${definition.name} jobs, handed to an external service and tracked to the end. Another user's job is a 404 like a missing one.`,
      },
    ],
    paths: {
      [base]: {
        post: {
          operationId: `start${name}Job`,
          tags,
          summary: `Start a ${definition.name} job`,
          description:
            "Stores the job and submits it to the service before answering: `submitted` once the service took it, else `queued` with the submission's `error`, retried later.",
          security,
          requestBody: { required: true, ...jsonContent(openApiRef("schemas", names.input)) },
          responses: {
            "201": {
              description: "The job as stored after its first submission.",
              ...jsonContent(job),
            },
            "400": startRefusal(definition),
            "401": unauthorized,
            "422": startValidation(definition),
          },
        },
        get: {
          operationId: `list${name}Jobs`,
          tags,
          summary: `Your ${definition.name} jobs, newest first`,
          security,
          parameters: LIST_PARAMETERS,
          responses: {
            "200": {
              description: "A page of your jobs.",
              headers: {
                Link: {
                  description: `When more jobs follow: \`<${base}?limit=<limit>&after=<last id>>; rel="next"\` (this page's limit).`,
                  schema: { type: "string", pattern: '^<[^>]+>; rel="next"$' },
                },
              },
              ...jsonContent({ type: "array", items: job, maxItems: MAXIMUM_LIST_LIMIT }),
            },
            "400": badRequest(
              "A `limit`, `offset` or `after` that is not plain decimal digits in range, or both `offset` and `after`.",
              {
                limit: LIMIT_MESSAGE,
                offset: OFFSET_MESSAGE,
                after: AFTER_MESSAGE,
                offset_and_after: OFFSET_AND_AFTER_MESSAGE,
              },
            ),
            "401": unauthorized,
          },
        },
      },
      [`${base}/{id}`]: {
        parameters: [
          {
            name: "id",
            in: "path",
            required: true,
            description: "The job's id; anything but an integer of 1 or more is a 404.",
            schema: { type: "integer", minimum: 1 },
          },
        ],
        get: {
          operationId: `get${name}Job`,
          tags,
          summary: `One of your ${definition.name} jobs`,
          security,
          responses: {
            "200": { description: "The job.", ...jsonContent(job) },
            "401": unauthorized,
            "404": openApiRef("responses", "NotFound"),
          },
        },
      },
    },
    schemas: jobSchemas(definition),
  };
}
