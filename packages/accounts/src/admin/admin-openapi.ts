// The OpenAPI part of the operators' JSON routes (`jsonAdminRoutes`). Every refusal of
// credentials is the 404 of a path the app does not serve (`adminBearer`), never a 401.
import {
  httpMessages,
  jsonContent,
  type OpenApiObject,
  type OpenApiPart,
  openApiRef,
} from "@tessera/http";
import type { AccountOpenApiOptions } from "../account-openapi.js";
import { BEARER_SECURITY, statusRefusal } from "../account-openapi-parts.js";
import {
  AUDIT_EVENT,
  AUDIT_EVENT_SCHEMA,
  LIST_PAGE_PARAMETERS,
  LIST_PAGE_REFUSALS,
  listPageAnswer,
} from "../audit/activity-openapi.js";
import {
  ADMIN_TAG,
  ADMIN_USER,
  BAN_OPERATION,
  IMPERSONATE_OPERATION,
  operatorOperation,
  USER_ID_PARAMETER,
} from "./admin-openapi-operations.js";
import { ADMIN_SCHEMAS, adminSchemas } from "./admin-openapi-schemas.js";

/** The paths of the admin part. */
function adminPaths(): Record<string, OpenApiObject> {
  return {
    "/api/admin/users": {
      get: operatorOperation(
        {
          operationId: "adminListUsers",
          summary: "Find users, newest first",
          parameters: [
            {
              name: "query",
              in: "query",
              description:
                "Only users whose email address (or a searched operator column) contains it, in any case. At most 254 UTF-16 code units, no NUL or lone surrogate (400 otherwise).",
              schema: { type: "string", maxLength: 254 },
            },
            ...LIST_PAGE_PARAMETERS,
          ],
          responses: {
            "200": listPageAnswer("A page of users.", ADMIN_USER, "/api/admin/users"),
            "400": statusRefusal(
              "A bad `limit`, `offset` or `after`, or both of the last two; a `query` over 254 characters or holding a NUL or a lone surrogate.",
              400,
              LIST_PAGE_REFUSALS,
            ),
          },
        },
        false,
      ),
    },
    "/api/admin/users/{id}": {
      parameters: [USER_ID_PARAMETER],
      get: operatorOperation({
        operationId: "adminGetUser",
        summary: "One user, with their factors, devices, keys and last sign-in",
        responses: {
          "200": {
            description: "The user.",
            ...jsonContent(openApiRef("schemas", ADMIN_SCHEMAS.userDetails)),
          },
        },
      }),
    },
    "/api/admin/users/{id}/ban": {
      parameters: [USER_ID_PARAMETER],
      post: operatorOperation(BAN_OPERATION),
    },
    "/api/admin/users/{id}/unban": {
      parameters: [USER_ID_PARAMETER],
      post: operatorOperation({
        operationId: "adminUnbanUser",
        summary: "Lift a user's ban",
        description:
          "Takes no body. Recorded as `user.unbanned`, the operator its actor; a user without a ban is answered the same.",
        responses: { "200": { description: "The user, `ban` null.", ...jsonContent(ADMIN_USER) } },
      }),
    },
    "/api/admin/users/{id}/sessions/revoke": {
      parameters: [USER_ID_PARAMETER],
      post: operatorOperation({
        operationId: "adminRevokeUserSessions",
        summary: "End every token and session of a user",
        description:
          "Takes no body. Their API keys stay; their devices are deleted. Their password signs them in again. Recorded as `user.session_revoked`.",
        responses: { "204": { description: "Ended." } },
      }),
    },
    "/api/admin/users/{id}/impersonate": {
      parameters: [USER_ID_PARAMETER],
      post: operatorOperation(IMPERSONATE_OPERATION),
    },
    "/api/admin/impersonation/stop": {
      post: {
        operationId: "adminStopImpersonation",
        tags: [ADMIN_TAG],
        summary: "Stop acting as a user",
        description:
          "Called with the token of `…/impersonate`, takes no body: every token the operator was given to act as a user stops working. Recorded as `user.impersonation_stopped`.",
        security: BEARER_SECURITY,
        responses: {
          "204": { description: "Stopped." },
          "404": statusRefusal(
            "Not a token an operator acts as a user with (none, another token, an API key, or one already stopped or expired).",
            404,
            { not_found: httpMessages.english["http.not_found"] },
          ),
        },
      },
    },
    "/api/admin/audit": {
      get: operatorOperation(
        {
          operationId: "adminListAuditEvents",
          summary: "The audit trail, newest first",
          description: "Empty when the app keeps no audit trail.",
          parameters: [
            {
              name: "user_id",
              in: "query",
              description: "Only the events about this user.",
              schema: { type: "integer", minimum: 1 },
            },
            {
              name: "type",
              in: "query",
              description: "Only the events of this type, e.g. `user.signed_in`.",
              schema: { type: "string", pattern: "^[a-z0-9_.]{1,100}$" },
            },
            ...LIST_PAGE_PARAMETERS,
          ],
          responses: {
            "200": listPageAnswer(
              "A page of events.",
              openApiRef("schemas", AUDIT_EVENT),
              "/api/admin/audit",
            ),
            "400": statusRefusal(
              "A bad `limit`, `offset` or `after`, or both of the last two; a `user_id` that is not an integer of 1 or more; a `type` that is not 1 to 100 of `a-z`, `0-9`, `_` and `.`.",
              400,
              LIST_PAGE_REFUSALS,
            ),
          },
        },
        false,
      ),
    },
  };
}

/**
 * The OpenAPI part of the operators' routes under `/api/admin` (`jsonAdminRoutes`): users
 * found, read, banned and unbanned, their sign-ins ended, impersonated, and the audit trail.
 * The users' schemas carry the app's public `operatorColumns`.
 */
export function adminOpenApi(options: AccountOpenApiOptions): OpenApiPart {
  return {
    tags: [
      {
        name: ADMIN_TAG,
        description:
          "The operators' routes: users found, read, banned, signed out and impersonated, and the audit trail. An operator is a user with the `admin` role or a confirmed `ADMIN_EMAILS` address, calling with a token (not an API key); anyone else gets 404 on every route, as for a path the app does not serve. Every change is recorded in the audit trail with the operator as its actor.",
      },
    ],
    paths: adminPaths(),
    schemas: { ...adminSchemas(options.operatorColumns ?? []), [AUDIT_EVENT]: AUDIT_EVENT_SCHEMA },
  };
}
