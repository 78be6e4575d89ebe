import type { OpenApiObject } from "@tessera/records";
import { APP_EVENT_TYPES } from "./webhook-endpoint-json.js";
import {
  MAXIMUM_ENDPOINT_BODY_BYTES,
  WEBHOOK_ENDPOINT_RATE_LIMIT,
  WEBHOOK_REPLAY_RATE_LIMIT,
} from "./webhook-endpoint-routes.js";

const ref = (section: string, name: string) => ({ $ref: `#/components/${section}/${name}` });
const json = (schema: OpenApiObject) => ({ "application/json": { schema } });
/** Times as `formatTimestamp` writes them, like the records' `created_at`. */
const TIME = {
  type: "string",
  pattern: "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$",
  description: "UTC, `YYYY-MM-DD HH:MM:SS`.",
};
const EVENTS = {
  type: "array",
  items: {
    anyOf: [
      { enum: [...APP_EVENT_TYPES] },
      {
        type: "string",
        pattern: "^[A-Za-z0-9_.-]{1,97}\\.\\*$",
        description: "A wildcard: `note.*` takes every event whose name starts with `note.`.",
      },
    ],
  },
  description:
    "The events it receives, by name or by wildcard (`note.*`); empty (or left out) receives every event.",
};

/** An endpoint as the API shows it, with `extra` properties (the secret, once). */
function endpointSchema(extra: Record<string, OpenApiObject>): OpenApiObject {
  return {
    type: "object",
    properties: {
      id: { type: "string", pattern: "^ep_" },
      url: { type: "string", format: "uri" },
      events: EVENTS,
      description: { type: "string" },
      enabled: { type: "boolean" },
      disabled_at: { oneOf: [TIME, { type: "null" }] },
      created_at: TIME,
      updated_at: TIME,
      ...extra,
    },
    required: [
      "id",
      "url",
      "events",
      "description",
      "enabled",
      "disabled_at",
      "created_at",
      "updated_at",
      ...Object.keys(extra),
    ],
    additionalProperties: false,
  };
}

/** `components.schemas` of the webhook endpoint routes. */
const schemas: Record<string, OpenApiObject> = {
  WebhookEndpoint: endpointSchema({}),
  WebhookEndpointWithSecret: endpointSchema({
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
      events: EVENTS,
      description: { type: "string", maxLength: 1000 },
    },
    required: ["url"],
    additionalProperties: false,
  },
  WebhookEndpointUpdate: {
    type: "object",
    properties: {
      url: { type: "string" },
      events: EVENTS,
      description: { type: "string", maxLength: 1000 },
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
      created_at: TIME,
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

/** `paths` of the webhook endpoint routes. */
const paths: Record<string, OpenApiObject> = {
  "/api/webhook_endpoints": {
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
  "/api/webhook_endpoints/{id}": {
    parameters: [id],
    get: {
      operationId: "showWebhookEndpoint",
      tags,
      responses: {
        "200": { description: "The endpoint.", content: json(ref("schemas", "WebhookEndpoint")) },
        ...errors,
      },
    },
    patch: {
      operationId: "updateWebhookEndpoint",
      tags,
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
      responses: { "204": { description: "Deleted, with its attempts." }, ...writeErrors },
    },
  },
  "/api/webhook_endpoints/{id}/rotate_secret": {
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
  "/api/webhook_endpoints/{id}/attempts": {
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
  "/api/webhook_messages/{id}/replay": {
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
};

/** The webhook endpoint routes' part of the app's OpenAPI document. */
export const webhookEndpointsOpenApi = { paths, schemas };
