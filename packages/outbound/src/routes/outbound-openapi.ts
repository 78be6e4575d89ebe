import { OPENAPI_TIMESTAMP } from "@tessera/http";
import {
  MAXIMUM_ENDPOINT_HEADERS,
  MAXIMUM_HEADER_NAME_LENGTH,
  MAXIMUM_HEADER_VALUE_LENGTH,
} from "../endpoint-headers.js";
import { MAXIMUM_RATE_LIMIT, MINIMUM_RATE_LIMIT } from "../endpoint-rate-limit.js";
import { MAXIMUM_EVENT_TYPE_LENGTH } from "../event-types.js";
import type { EventTypeDescription } from "./event-type-catalog.js";
import {
  MAXIMUM_ENDPOINT_BODY_BYTES,
  WEBHOOK_ENDPOINT_RATE_LIMIT,
  WEBHOOK_REPLAY_RATE_LIMIT,
} from "./outbound-routes.js";

/** An OpenAPI object as plain data. */
type OpenApiObject = Readonly<Record<string, unknown>>;

const ref = (section: string, name: string) => ({ $ref: `#/components/${section}/${name}` });
const json = (schema: OpenApiObject) => ({ "application/json": { schema } });
const eventsSchema = (names: readonly string[]) => ({
  type: "array",
  items: {
    anyOf: [
      { enum: [...names] },
      {
        type: "string",
        pattern: `^[A-Za-z0-9_.-]{1,${MAXIMUM_EVENT_TYPE_LENGTH - 2}}\\.\\*$`,
        description: "A wildcard: `note.*` takes every event whose name starts with `note.`.",
      },
    ],
  },
  description:
    "The events it receives, by name or by wildcard (`note.*`); empty (or left out) receives every event.",
});

/** `headers` of a create or change: names to values, sent with every delivery. */
const HEADERS = {
  oneOf: [
    {
      type: "object",
      maxProperties: MAXIMUM_ENDPOINT_HEADERS,
      propertyNames: { pattern: `^[!#$%&'*+.^_\`|~0-9A-Za-z-]{1,${MAXIMUM_HEADER_NAME_LENGTH}}$` },
      additionalProperties: { type: "string", maxLength: MAXIMUM_HEADER_VALUE_LENGTH },
    },
    { type: "null" },
  ],
  description: `Up to ${MAXIMUM_ENDPOINT_HEADERS} custom headers every delivery carries, stored encrypted and never shown again (the endpoint lists their names). \`webhook-*\`, \`content-*\`, \`host\`, \`authorization\`, \`user-agent\`, hop-by-hop and forwarding headers are refused (422 on \`headers\`). On a change they replace the endpoint's; null or {} removes them.`,
};
/** `rate_limit` of a create or change. */
const RATE_LIMIT = {
  oneOf: [
    { type: "integer", minimum: MINIMUM_RATE_LIMIT, maximum: MAXIMUM_RATE_LIMIT },
    { type: "null" },
  ],
  description:
    "The most deliveries a second this endpoint receives; the others wait in the queue, none is lost. null: no limit.",
};

/** An endpoint as the API shows it, with `extra` properties (the secret, once). */
function endpointSchema(
  events: OpenApiObject,
  extra: Record<string, OpenApiObject>,
): OpenApiObject {
  return {
    type: "object",
    properties: {
      id: { type: "string", pattern: "^ep_" },
      url: { type: "string", format: "uri" },
      events,
      description: { type: "string" },
      enabled: { type: "boolean" },
      header_names: {
        type: "array",
        items: { type: "string" },
        description: "The names of its custom headers; their values are never shown.",
      },
      rate_limit: { oneOf: [{ type: "integer" }, { type: "null" }] },
      disabled_at: { oneOf: [OPENAPI_TIMESTAMP, { type: "null" }] },
      created_at: OPENAPI_TIMESTAMP,
      updated_at: OPENAPI_TIMESTAMP,
      ...extra,
    },
    required: [
      "id",
      "url",
      "events",
      "description",
      "enabled",
      "header_names",
      "rate_limit",
      "disabled_at",
      "created_at",
      "updated_at",
      ...Object.keys(extra),
    ],
    additionalProperties: false,
  };
}

/** `components.schemas` of the webhook endpoint routes, for an app that sends `eventNames`. */
const schemasOf = (eventNames: readonly string[]): Record<string, OpenApiObject> => {
  const events = eventsSchema(eventNames);
  return {
    WebhookEndpoint: endpointSchema(events, {}),
    WebhookEndpointWithSecret: endpointSchema(events, {
      secret: {
        type: "string",
        pattern: "^whsec_",
        description: "The Standard Webhooks signing secret: shown only in this answer.",
      },
    }),
    WebhookEndpointCreate: {
      type: "object",
      properties: {
        url: {
          type: "string",
          description:
            "http(s) (https only in production); a host that is or resolves to a private, loopback, link-local or other non-public address is refused (422 `is not allowed`), and so is a URL not written plainly: a user name or password, even empty, a backslash, a space, or a missing or extra slash (422 `must be written as http(s)://host/path, with no user name or password`).",
        },
        events,
        description: { type: "string", maxLength: 1000 },
        headers: HEADERS,
        rate_limit: RATE_LIMIT,
      },
      required: ["url"],
      additionalProperties: false,
    },
    WebhookEndpointUpdate: {
      type: "object",
      properties: {
        url: { type: "string" },
        events,
        description: { type: "string", maxLength: 1000 },
        headers: HEADERS,
        rate_limit: RATE_LIMIT,
        enabled: { type: "boolean", description: "false disables it; true enables it again." },
      },
      additionalProperties: false,
    },
    WebhookAttempt: {
      type: "object",
      properties: {
        message_id: { type: "string", pattern: "^msg_" },
        event_type: { type: "string" },
        attempt: { type: "integer", minimum: 1 },
        status: { enum: ["succeeded", "failed"] },
        response_status: { oneOf: [{ type: "integer" }, { type: "null" }] },
        duration_ms: { type: "integer", minimum: 0 },
        created_at: OPENAPI_TIMESTAMP,
      },
      required: [
        "message_id",
        "event_type",
        "attempt",
        "status",
        "response_status",
        "duration_ms",
        "created_at",
      ],
      additionalProperties: false,
    },
  };
};

const errors = {
  "401": ref("responses", "Unauthorized"),
  "404": ref("responses", "NotFound"),
};
const tooMany = (what: string) => ({
  description: `More than ${what} by this user: try again after \`Retry-After\` seconds.`,
  headers: { "Retry-After": { schema: { type: "integer" } } },
  content: json(ref("schemas", "Error")),
});
const writeErrors = {
  ...errors,
  "400": ref("responses", "BadRequest"),
  "429": tooMany(`${WEBHOOK_ENDPOINT_RATE_LIMIT.limit} changes a minute`),
};
const id = {
  name: "id",
  in: "path",
  required: true,
  schema: { type: "string" },
};
const tags = ["webhook_endpoints"];
const bodyOf = (schema: string) => ({
  required: true,
  content: json(ref("schemas", schema)),
  description: `At most ${MAXIMUM_ENDPOINT_BODY_BYTES} bytes.`,
});

/** `paths` of the webhook endpoint routes under `base`. */
const pathsOf = (base: string): Record<string, OpenApiObject> => ({
  [`${base}/webhook_endpoints`]: {
    get: {
      operationId: "listWebhookEndpoints",
      tags,
      summary: "Your webhook endpoints, newest first (never a secret).",
      responses: {
        "200": {
          description: "The endpoints.",
          content: json({ type: "array", items: ref("schemas", "WebhookEndpoint") }),
        },
        "401": errors["401"],
      },
    },
    post: {
      operationId: "createWebhookEndpoint",
      tags,
      summary: "Adds an endpoint; the answer carries its secret, shown this once.",
      requestBody: bodyOf("WebhookEndpointCreate"),
      responses: {
        "201": {
          description: "The endpoint and its secret.",
          content: json(ref("schemas", "WebhookEndpointWithSecret")),
        },
        "409": {
          description:
            "You already have the most endpoints allowed (`OUTBOUND_MAX_ENDPOINTS`, 20 by default): code `endpoint_limit_reached`; remove one to add another.",
          content: json(ref("schemas", "Error")),
        },
        "422": ref("responses", "ValidationFailed"),
        ...writeErrors,
      },
    },
  },
  [`${base}/webhook_endpoints/{id}`]: {
    parameters: [id],
    get: {
      operationId: "showWebhookEndpoint",
      tags,
      summary: "One of your endpoints (never its secret).",
      responses: {
        "200": { description: "The endpoint.", content: json(ref("schemas", "WebhookEndpoint")) },
        ...errors,
      },
    },
    patch: {
      operationId: "updateWebhookEndpoint",
      tags,
      summary: "Changes an endpoint's URL, events, description, headers, rate limit or state.",
      requestBody: bodyOf("WebhookEndpointUpdate"),
      responses: {
        "200": {
          description: "The endpoint as changed.",
          content: json(ref("schemas", "WebhookEndpoint")),
        },
        "422": ref("responses", "ValidationFailed"),
        ...writeErrors,
      },
    },
    delete: {
      operationId: "deleteWebhookEndpoint",
      tags,
      summary: "Deletes an endpoint and its attempts.",
      responses: { "204": { description: "Deleted, with its attempts." }, ...writeErrors },
    },
  },
  [`${base}/webhook_endpoints/{id}/rotate_secret`]: {
    parameters: [id],
    post: {
      operationId: "rotateWebhookEndpointSecret",
      tags,
      summary: "A new secret; for 24 hours deliveries carry the new and the previous signature.",
      responses: {
        "200": {
          description: "The new secret, shown this once.",
          content: json({
            type: "object",
            properties: { secret: { type: "string", pattern: "^whsec_" } },
            required: ["secret"],
            additionalProperties: false,
          }),
        },
        ...writeErrors,
      },
    },
  },
  [`${base}/webhook_endpoints/{id}/attempts`]: {
    parameters: [id],
    get: {
      operationId: "listWebhookAttempts",
      tags,
      summary: "The endpoint's delivery attempts, newest first (the last 50).",
      responses: {
        "200": {
          description: "The attempts.",
          content: json({ type: "array", items: ref("schemas", "WebhookAttempt") }),
        },
        ...errors,
      },
    },
  },
  [`${base}/webhook_messages/{id}/replay`]: {
    parameters: [id],
    post: {
      operationId: "replayWebhookMessage",
      tags,
      summary:
        "Sends one of your messages again to every endpoint that takes its type now, except those a delivery of it still waits for.",
      responses: {
        "202": {
          description: "The deliveries are queued.",
          content: json({
            type: "object",
            properties: {
              message_id: { type: "string" },
              endpoints: {
                type: "integer",
                minimum: 0,
                description: "How many endpoints it goes to again: new deliveries.",
              },
              already_pending: {
                type: "integer",
                minimum: 0,
                description:
                  "How many endpoints a delivery of it still waits for: the replay adds none for them.",
              },
            },
            required: ["message_id", "endpoints", "already_pending"],
            additionalProperties: false,
          }),
        },
        ...writeErrors,
        "429": tooMany(`${WEBHOOK_REPLAY_RATE_LIMIT.limit} replays a minute`),
      },
    },
  },
  [`${base}/webhook_endpoints/{id}/test`]: {
    parameters: [id],
    post: {
      operationId: "sendWebhookTestEvent",
      tags,
      summary:
        "Sends an example event of one type to this endpoint alone, through the normal delivery path (signed, logged as an attempt).",
      requestBody: {
        required: true,
        content: json({
          type: "object",
          properties: { type: { type: "string", description: "An event type the app sends." } },
          required: ["type"],
          additionalProperties: false,
        }),
      },
      responses: {
        "202": {
          description: "The test message is queued for this endpoint.",
          content: json({
            type: "object",
            properties: {
              message_id: { type: "string", pattern: "^msg_" },
              type: { type: "string" },
            },
            required: ["message_id", "type"],
            additionalProperties: false,
          }),
        },
        "422": ref("responses", "ValidationFailed"),
        ...writeErrors,
      },
    },
  },
});

/** The catalog route: every event type with the schema of its `data`. */
const EVENT_TYPES_PATH = {
  "/api/webhook_event_types": {
    get: {
      operationId: "listWebhookEventTypes",
      tags,
      summary: "The events the app sends, each with the JSON Schema of its `data`.",
      security: [],
      responses: {
        "200": {
          description: "The event types.",
          content: json({
            type: "array",
            items: {
              type: "object",
              properties: {
                name: { type: "string" },
                description: { type: "string" },
                schema: { type: "object", description: "A JSON Schema (2020-12)." },
              },
              required: ["name", "description", "schema"],
              additionalProperties: false,
            },
          }),
        },
      },
    },
  },
};

/** An event as its deliveries carry it: `{"type","timestamp","data"}`, for the `webhooks` section. */
function deliveredEvent({ name, description, schema }: EventTypeDescription): OpenApiObject {
  return {
    post: {
      operationId: `${name.replace(/[^A-Za-z0-9]+(.)?/g, (_all, next: string | undefined) => (next ?? "").toUpperCase())}Event`,
      summary: description,
      description:
        "Signed as Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`); answer 2xx within 15 seconds, or it is retried.",
      requestBody: {
        required: true,
        content: json({
          type: "object",
          properties: {
            type: { const: name },
            timestamp: { type: "string", format: "date-time" },
            data: schema,
          },
          required: ["type", "timestamp", "data"],
          additionalProperties: false,
        }),
      },
      responses: { "200": { description: "Received: any 2xx." } },
    },
  };
}

/** What {@link outboundOpenApi} describes. */
export interface OutboundOpenApiOptions {
  /** The events the app sends: the `events` enum, the catalog and the `webhooks` section. */
  readonly eventTypes: readonly EventTypeDescription[];
  /**
   * As `outboundRoutes`' `basePath` (default `/api`); a `:name` segment is written `{name}`
   * (`/api/orgs/:slug` describes `/api/orgs/{slug}/webhook_endpoints`…).
   */
  readonly basePath?: string | undefined;
  /** The path parameters of `basePath` (the `slug` of `/api/orgs/{slug}`), on every path item. */
  readonly parameters?: readonly OpenApiObject[] | undefined;
  /**
   * Answers by status every operation under `basePath` adds (an organization's `403` to a role
   * without the permission, `404` to a non-member).
   */
  readonly responses?: Readonly<Record<string, OpenApiObject>> | undefined;
  /**
   * Put before every operation id under `basePath`, so that a second description of the routes
   * under another base keeps each id unique in one document (`organization`:
   * `organizationListWebhookEndpoints`). Default: none.
   */
  readonly operationIdPrefix?: string | undefined;
}

const OPERATIONS: ReadonlySet<string> = new Set(["get", "put", "post", "patch", "delete"]);

/** `paths` with `options`' parameters, answers and operation id prefix. */
function scopedPaths(
  paths: Record<string, OpenApiObject>,
  options: OutboundOpenApiOptions,
): Record<string, OpenApiObject> {
  const parameters = options.parameters ?? [];
  const extra = options.responses ?? {};
  const prefix = options.operationIdPrefix ?? "";
  if (parameters.length === 0 && Object.keys(extra).length === 0 && prefix === "") return paths;
  const operationId = (id: string) =>
    prefix === "" ? id : `${prefix}${id.charAt(0).toUpperCase()}${id.slice(1)}`;
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => {
      const scoped: Record<string, unknown> = {};
      const own = (item.parameters as readonly OpenApiObject[] | undefined) ?? [];
      if (parameters.length + own.length > 0) scoped.parameters = [...parameters, ...own];
      for (const [key, value] of Object.entries(item)) {
        if (!OPERATIONS.has(key)) continue;
        const operation = value as OpenApiObject & { operationId: string };
        // In status order, as the other operations list them.
        const responses = Object.entries({ ...(operation.responses as OpenApiObject), ...extra });
        scoped[key] = {
          ...operation,
          operationId: operationId(operation.operationId),
          responses: Object.fromEntries(responses.sort(([a], [b]) => a.localeCompare(b))),
        };
      }
      return [path, scoped];
    }),
  );
}

/**
 * The outbound routes' part of an OpenAPI 3.1 document: `paths` (the endpoint routes and the
 * event-type catalog), `schemas` for `components.schemas`, and `webhooks` (each event the app
 * sends, as its receivers get it). Its error answers refer to `components.responses`
 * `BadRequest`, `Unauthorized`, `NotFound` and `ValidationFailed` and the `Error` schema, which
 * the records' `openApiDocument` declares: merge it into such a document. For the same routes
 * under another `basePath` too (an organization's), merge the `paths` of a second call with
 * that base and an `operationIdPrefix`: the rest (and the catalog's path) is the same.
 */
export function outboundOpenApi(options: OutboundOpenApiOptions) {
  const names = options.eventTypes.map((type) => type.name);
  return {
    tag: { name: "webhook_endpoints", description: "Your endpoints for the events the app sends." },
    paths: {
      ...scopedPaths(pathsOf((options.basePath ?? "/api").replace(/:(\w+)/g, "{$1}")), options),
      ...EVENT_TYPES_PATH,
    },
    schemas: schemasOf(names),
    webhooks: Object.fromEntries(
      options.eventTypes.map((type) => [type.name, deliveredEvent(type)]),
    ) as Record<string, OpenApiObject>,
  };
}
