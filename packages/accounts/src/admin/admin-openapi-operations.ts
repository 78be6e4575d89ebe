// The operations of the admin routes' OpenAPI part that carry more than a 200 and the 404:
// the ban (its body's 400, the operator's 409, the fields' 422) and the impersonation (the
// acting token, the 409), and what every admin operation has (its tag, security and 404).
import { BLANK, errorEnvelope } from "@tessera/core";
import {
  DEFAULT_MAXIMUM_BODY_BYTES,
  httpMessages,
  JSON_BODY_FAILURE_PREFIX,
  jsonContent,
  type OpenApiObject,
  openApiRef,
} from "@tessera/http";
import { accountMessages } from "../account-messages.js";
import { accountRefusals, BEARER_SECURITY, statusRefusal } from "../account-openapi-parts.js";
import { adminErrors } from "./admin-errors.js";
import { ADMIN_SCHEMAS } from "./admin-openapi-schemas.js";
import { IMPERSONATION_LIFETIME_SECONDS } from "./impersonation.js";

/** The tag of every admin operation. */
export const ADMIN_TAG = "admin";
/** The `AdminUser` schema, by reference. */
export const ADMIN_USER = openApiRef("schemas", ADMIN_SCHEMAS.user);

/** The 404 of an admin route: not an operator's token; with `subject`, or no such user. */
export function notFoundAnswer(subject: boolean): OpenApiObject {
  const missing = subject
    ? "; or no user of this id (a path id that is not an integer of 1 or more is none)"
    : "";
  return statusRefusal(
    `Not an operator with a token: no credentials, an expired or revoked token, an API key, or a user who is neither \`admin\` nor a confirmed \`ADMIN_EMAILS\` address. It is the answer of a path the app does not serve, so the route's existence is not revealed${missing}.`,
    404,
    { not_found: httpMessages.english["http.not_found"] },
  );
}

/** The `{id}` of `/api/admin/users/{id}…`. */
export const USER_ID_PARAMETER: OpenApiObject = {
  name: "id",
  in: "path",
  required: true,
  description: "The user's id.",
  schema: { type: "integer", minimum: 1 },
};

/** An operation with its `responses`. */
export type Operation = OpenApiObject & { readonly responses: OpenApiObject };

/** An operator's operation; `subject`: on `/api/admin/users/{id}…`, whose 404 covers a missing user. */
export function operatorOperation(operation: Operation, subject = true): OpenApiObject {
  return {
    tags: [ADMIN_TAG],
    security: BEARER_SECURITY,
    ...operation,
    responses: { ...operation.responses, "404": notFoundAnswer(subject) },
  };
}

/** The 422 of a ban: the envelope with `fields` among `reason` and `until`. */
const BAN_VALIDATION: OpenApiObject = {
  description:
    "Every failing field at once: a `reason` blank or too long once trimmed, or holding a character that cannot be stored; an `until` that is not `YYYY-MM-DD HH:MM:SS` or not in the future.",
  content: {
    "application/json": {
      schema: {
        allOf: [
          openApiRef("schemas", "ValidationError"),
          {
            type: "object",
            properties: {
              error: {
                type: "object",
                properties: {
                  fields: { type: "object", propertyNames: { enum: ["reason", "until"] } },
                },
              },
            },
          },
        ],
      },
      example: errorEnvelope(422, httpMessages.english["http.validation_failed"], {
        fields: {
          reason: [BLANK],
          until: [accountMessages.english["accounts.admin.until_past"]],
        },
      }),
    },
  },
};

/** `POST /api/admin/users/{id}/ban`, but for its 404. */
export const BAN_OPERATION: Operation = {
  operationId: "adminBanUser",
  summary: "Ban a user: their sign-ins end, and none is let in while it lasts",
  description:
    "Ends the user's tokens and sessions and deletes their devices in the same change; their API keys stay, refused while the ban is in force. Recorded as `user.banned`, the operator its actor. The body is read before the user is looked up.",
  requestBody: { required: true, ...jsonContent(openApiRef("schemas", ADMIN_SCHEMAS.ban)) },
  responses: {
    "200": { description: "The user as banned.", ...jsonContent(ADMIN_USER) },
    "400": statusRefusal(
      `A body that cannot be read (not \`application/json\` in UTF-8, over ${DEFAULT_MAXIMUM_BODY_BYTES} bytes, not JSON, not an object: \`${JSON_BODY_FAILURE_PREFIX}<reason>\`), a \`reason\` that is not a string, or an \`until\` that is neither a string nor null.`,
      400,
      { unreadable: `${JSON_BODY_FAILURE_PREFIX}<reason>` },
    ),
    "409": accountRefusals("An operator cannot be banned: revoke the role first.", [
      adminErrors.adminNotBannable,
    ]),
    "422": BAN_VALIDATION,
  },
};

/** `POST /api/admin/users/{id}/impersonate`, but for its 404. */
export const IMPERSONATE_OPERATION: Operation = {
  operationId: "adminImpersonateUser",
  summary: "Act as a user: a token for them, carrying the operator",
  description: `A token for the user (its \`act\` claim names the operator; \`Cache-Control: no-store\`) of at most ${IMPERSONATION_LIFETIME_SECONDS} seconds and no refresh token. Routes that change credentials or factors refuse it (403 \`impersonation_not_allowed\`). It ends with \`POST /api/admin/impersonation/stop\`, when the operator stops being one, or when the user is banned. Recorded as \`user.impersonation_started\`.`,
  responses: {
    "200": {
      description: "The token to act as the user with.",
      ...jsonContent({
        allOf: [
          openApiRef("schemas", "Token"),
          {
            type: "object",
            properties: {
              expires_in: { type: "integer", maximum: IMPERSONATION_LIFETIME_SECONDS },
            },
            not: { required: ["refresh_token"] },
          },
        ],
      }),
    },
    "409": accountRefusals("Operators and banned users are never impersonated.", [
      adminErrors.notImpersonable,
    ]),
  },
};
