// The pieces a package needs to describe its JSON routes in an app's OpenAPI 3.1 document. Each
// package builds a part (its paths, and the components they refer to) beside the routes it
// describes; the app merges the parts of what it mounts with `mergeOpenApiParts`.
import { type ErrorEnvelope, errorEnvelope } from "@tessera/core";
import { httpMessages } from "./http-messages.js";
import { JSON_BODY_FAILURE_PREFIX } from "./json-body.js";

/** An OpenAPI object as plain data (an operation, a schema, a response). */
export type OpenApiObject = Readonly<Record<string, unknown>>;

/** What one package adds to an app's OpenAPI document. */
export interface OpenApiPart {
  /** Tags its operations use, with their descriptions. */
  readonly tags: readonly OpenApiObject[];
  /** Path items by OpenAPI path template (`/api/auth/keys/{id}`). */
  readonly paths: Readonly<Record<string, OpenApiObject>>;
  /** `components.schemas` entries its paths refer to. */
  readonly schemas?: Readonly<Record<string, OpenApiObject>> | undefined;
  /** `components.responses` entries its paths refer to. */
  readonly responses?: Readonly<Record<string, OpenApiObject>> | undefined;
}

/** A time as `formatTimestamp` of @tessera/core writes it: UTC `YYYY-MM-DD HH:MM:SS`. */
export const OPENAPI_TIMESTAMP: OpenApiObject = {
  type: "string",
  pattern: "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$",
  description: "UTC, `YYYY-MM-DD HH:MM:SS`.",
};

/** A `$ref` to `#/components/<section>/<name>`. */
export function openApiRef(section: string, name: string): OpenApiObject {
  return { $ref: `#/components/${section}/${name}` };
}

/** `content` of a JSON body whose schema is `schema`, for a request body or a response. */
export function jsonContent(schema: OpenApiObject): OpenApiObject {
  return { content: { "application/json": { schema } } };
}

/**
 * An error answer of the envelope `{"error":{"code","message","status","fields"?}}`: its schema is
 * `#/components/schemas/<schema>` (`Error`, or `ValidationError` for a 422) and its example is
 * `envelope`, so the document shows the exact code and message a client gets.
 */
export function openApiErrorResponse(
  description: string,
  envelope: ErrorEnvelope,
  schema = "Error",
): OpenApiObject {
  // Copied into a plain object: the envelope's interface has no index signature.
  const { code, message, status, fields } = envelope.error;
  const example = { error: { code, message, status, ...(fields ? { fields } : {}) } };
  return {
    description,
    content: { "application/json": { schema: openApiRef("schemas", schema), example } },
  };
}

/** A route path (`/api/auth/keys/:id`) as an OpenAPI path template (`/api/auth/keys/{id}`). */
export function openApiPath(routePath: string): string {
  return routePath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
}

/** A document in the shape {@link mergeOpenApiParts} reads and writes. */
export interface OpenApiDocumentShape {
  readonly tags?: readonly OpenApiObject[] | undefined;
  readonly paths?: Readonly<Record<string, OpenApiObject>> | undefined;
  readonly components?: Readonly<Record<string, unknown>> | undefined;
  readonly [key: string]: unknown;
}

/**
 * `document` with the parts' tags, paths, schemas and responses added. Two parts describing the
 * same operation, or naming two different components alike, is a mistake of the app's wiring:
 * it throws rather than let one silently replace the other.
 */
export function mergeOpenApiParts<D extends OpenApiDocumentShape>(
  document: D,
  parts: readonly OpenApiPart[],
): D {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [template, item] of Object.entries(document.paths ?? {}))
    paths[template] = { ...item };
  const components = (document.components ?? {}) as Record<string, Record<string, unknown>>;
  const schemas = { ...components.schemas };
  const responses = { ...components.responses };
  const tags = [...(document.tags ?? [])];
  for (const part of parts) {
    for (const [template, item] of Object.entries(part.paths)) {
      const merged = paths[template] ?? {};
      for (const [method, operation] of Object.entries(item)) {
        if (method in merged) throw new Error(`OpenAPI: ${method} ${template} is described twice`);
        merged[method] = operation;
      }
      paths[template] = merged;
    }
    addComponents(schemas, part.schemas, "schemas");
    addComponents(responses, part.responses, "responses");
    for (const tag of part.tags) if (!tags.some(({ name }) => name === tag.name)) tags.push(tag);
  }
  return { ...document, tags, paths, components: { ...components, schemas, responses } };
}

function addComponents(
  into: Record<string, unknown>,
  added: Readonly<Record<string, OpenApiObject>> | undefined,
  section: string,
): void {
  for (const [name, value] of Object.entries(added ?? {})) {
    if (name in into && JSON.stringify(into[name]) !== JSON.stringify(value)) {
      throw new Error(`OpenAPI: components.${section}.${name} is defined twice, differently`);
    }
    into[name] = value;
  }
}

const FIELD_MESSAGES: OpenApiObject = {
  type: "object",
  description: "Each failing input name with all of its messages.",
  additionalProperties: { type: "array", items: { type: "string" }, minItems: 1 },
};

/** The envelope's schema; a 422's always has `fields` and the code `validation_failed`. */
function envelopeSchema(validation: boolean): OpenApiObject {
  const error: OpenApiObject = {
    type: "object",
    properties: {
      code: validation
        ? { const: "validation_failed" }
        : {
            type: "string",
            pattern: "^[a-z]+(_[a-z0-9]+)*$",
            description: "A stable snake_case word for programs to act on; the message may change.",
          },
      message: validation
        ? { const: httpMessages.english["http.validation_failed"] }
        : { type: "string" },
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

/**
 * The part every JSON API shares: the envelope's schemas (`Error`, `ValidationError`) and the
 * answers any route may give, as `components.responses`: `BadRequest`, `Unauthorized`,
 * `NotFound`, `ValidationFailed` and `TooManyRequests` (with its `Retry-After`). Other parts
 * refer to them with {@link openApiRef}.
 */
export function openApiErrorPart(maximumJsonBytes: number): OpenApiPart {
  return {
    tags: [],
    paths: {},
    schemas: { Error: envelopeSchema(false), ValidationError: envelopeSchema(true) },
    responses: {
      BadRequest: openApiErrorResponse(
        `A request that cannot be read: a JSON body that is not \`application/json\` in UTF-8, larger than ${maximumJsonBytes} bytes, not JSON, not an object, without a required key, with a value of the wrong JSON type or an enum value outside its list (\`${JSON_BODY_FAILURE_PREFIX}<reason>\`); a file upload that is not multipart; a bad query parameter.`,
        errorEnvelope(400, `${JSON_BODY_FAILURE_PREFIX}missing field \`title\``),
      ),
      Unauthorized: {
        ...openApiErrorResponse(
          "Missing, malformed, expired or revoked credentials; or the account was deleted while the request ran.",
          errorEnvelope(401, httpMessages.english["http.unauthenticated"]),
        ),
        headers: { "WWW-Authenticate": { schema: { type: "string", const: "Bearer" } } },
      },
      NotFound: openApiErrorResponse(
        "Nothing of yours at this address: another user's answers the same as a missing one.",
        errorEnvelope(404, httpMessages.english["http.not_found"]),
      ),
      ValidationFailed: openApiErrorResponse(
        "Every failing field at once, with its messages.",
        errorEnvelope(422, httpMessages.english["http.validation_failed"], {
          fields: { title: ["can't be blank"] },
        }),
        "ValidationError",
      ),
      TooManyRequests: {
        ...openApiErrorResponse(
          "Too many requests from this client (or for this account) in the window: wait `Retry-After` seconds.",
          errorEnvelope(429, httpMessages.english["http.rate_limited"]),
        ),
        headers: {
          "Retry-After": {
            description: "Seconds to wait before trying again.",
            required: true,
            schema: { type: "string", pattern: "^[0-9]+$" },
          },
        },
      },
    },
  };
}

/**
 * `document` without the operations that are not among `routes` (what the app mounted), and
 * without paths left empty: one document describes every route a package can serve, and an app
 * that leaves some out (no mailer, no passkeys) does not describe them.
 */
export function onlyMountedOperations<D extends OpenApiDocumentShape>(
  document: D,
  routes: readonly { readonly method: string; readonly path: string }[],
): D {
  const mounted = new Set(
    routes.map(({ method, path }) => `${method.toLowerCase()} ${openApiPath(path)}`),
  );
  const paths: Record<string, OpenApiObject> = {};
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    const kept = Object.entries(item).filter(
      ([key]) => !HTTP_METHODS.has(key) || mounted.has(`${key} ${template}`),
    );
    if (kept.some(([key]) => HTTP_METHODS.has(key))) paths[template] = Object.fromEntries(kept);
  }
  return { ...document, paths };
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
