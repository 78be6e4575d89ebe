import {
  AFTER_MESSAGE,
  DEFAULT_LIST_LIMIT,
  jsonContent,
  LIMIT_MESSAGE,
  MAXIMUM_LIST_LIMIT,
  OFFSET_AND_AFTER_MESSAGE,
  OFFSET_MESSAGE,
  OPENAPI_TIMESTAMP,
  type OpenApiObject,
  type OpenApiPart,
  openApiRef,
} from "@tessera/http";
import type { AccountOpenApiOptions } from "../account-openapi.js";
import { BEARER_SECURITY, sharedAnswers, statusRefusal } from "../account-openapi-parts.js";
import { ACCOUNT_AUDIT_EVENT_TYPES, MAXIMUM_USER_AGENT_LENGTH } from "./audit-events.js";

const ID: OpenApiObject = { type: "integer", minimum: 1 };
const NULLABLE_ID: OpenApiObject = { type: ["integer", "null"], minimum: 1 };

/** The name of the audit event's schema in `components.schemas`. */
export const AUDIT_EVENT = "AuditEvent";

/** `components.schemas.AuditEvent`: one event of the trail, as `auditEventJson` writes it. */
export const AUDIT_EVENT_SCHEMA: OpenApiObject = {
  type: "object",
  description: "One event of the audit trail: what changed, about whom, by whom, from where.",
  properties: {
    id: { ...ID, description: "Ascending in time: a later event has a greater id." },
    at: OPENAPI_TIMESTAMP,
    type: {
      type: "string",
      description:
        "What happened: one of the account events (see `examples`), or another package's or the app's own (`organization.member_added`).",
      examples: [...ACCOUNT_AUDIT_EVENT_TYPES],
    },
    user_id: {
      ...NULLABLE_ID,
      description: "The user the event is about; null for an address with no account.",
    },
    actor_id: {
      ...NULLABLE_ID,
      description:
        "Who made the change when it was not the user (an operator, an organization's owner); null otherwise.",
    },
    ip: {
      type: ["string", "null"],
      description: "The client's address, as the app reads it (`TRUST_PROXY` applied).",
    },
    user_agent: {
      type: ["string", "null"],
      maxLength: MAXIMUM_USER_AGENT_LENGTH,
      description: `The client's \`User-Agent\`, cut to ${MAXIMUM_USER_AGENT_LENGTH} characters.`,
    },
    details: {
      type: "object",
      description: "What else the event records (never a secret), by name.",
      additionalProperties: {
        anyOf: [
          { type: ["string", "number", "boolean", "null"] },
          { type: "array", items: { type: "string" } },
        ],
      },
    },
  },
  required: ["id", "at", "type", "user_id", "actor_id", "ip", "user_agent", "details"],
  additionalProperties: false,
};

/** `limit`, `offset` and `after` of every listing, as `readListPage` reads them. */
export const LIST_PAGE_PARAMETERS: readonly OpenApiObject[] = [
  {
    name: "limit",
    in: "query",
    description: `Items per page, plain decimal digits (default ${DEFAULT_LIST_LIMIT}).`,
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
    description: "Items to skip, plain decimal digits (default 0). Not with `after`.",
    schema: { type: "integer", minimum: 0, default: 0 },
  },
  {
    name: "after",
    in: "query",
    description:
      "Keyset paging: only items whose id is below this one, the last id of the page before. Not with `offset`.",
    schema: { type: "integer", minimum: 1 },
  },
];

/** The examples of a listing's 400 for a bad `limit`, `offset` or `after`, by name. */
export const LIST_PAGE_REFUSALS: Readonly<Record<string, string>> = {
  limit: LIMIT_MESSAGE,
  offset: OFFSET_MESSAGE,
  after: AFTER_MESSAGE,
  offset_and_after: OFFSET_AND_AFTER_MESSAGE,
};

/**
 * The 200 of a listing at `path`, newest first: an array of `item`, with the `Link` to the
 * next page when one follows (`loadListPage`), which keeps the listing's filters.
 */
export function listPageAnswer(description: string, item: OpenApiObject, path: string) {
  return {
    description,
    headers: {
      Link: {
        description: `When more items follow: \`<${path}?limit=<limit>&after=<last id>[&<filters>]>; rel="next"\` (this page's limit, the request's other query parameters after the paging ones).`,
        schema: { type: "string", pattern: '^<[^>]+>; rel="next"$' },
      },
    },
    ...jsonContent({ type: "array", items: item, maxItems: MAXIMUM_LIST_LIMIT }),
  };
}

/** The OpenAPI part of `GET /api/auth/activity`: the bearer's own audit events. */
export function activityOpenApi(_options: AccountOpenApiOptions): OpenApiPart {
  return {
    tags: [
      {
        name: "activity",
        description:
          "The signed-in user's own audit trail: sign-ins and failed ones, credential changes, second factors, keys, devices, an operator's actions on the account.",
      },
    ],
    paths: {
      "/api/auth/activity": {
        get: {
          operationId: "listActivity",
          tags: ["activity"],
          summary: "Your audit events, newest first",
          description:
            "Every event about the bearer's account, from a token or an API key, paged as every listing.",
          security: BEARER_SECURITY,
          parameters: LIST_PAGE_PARAMETERS,
          responses: {
            "200": listPageAnswer(
              "A page of your events.",
              openApiRef("schemas", AUDIT_EVENT),
              "/api/auth/activity",
            ),
            "400": statusRefusal(
              "A `limit`, `offset` or `after` that is not plain decimal digits in range, or both `offset` and `after`.",
              400,
              LIST_PAGE_REFUSALS,
            ),
            ...sharedAnswers("Unauthorized"),
          },
        },
      },
    },
    schemas: { [AUDIT_EVENT]: AUDIT_EVENT_SCHEMA },
  };
}
