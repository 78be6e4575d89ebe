// The OpenAPI part of changing the account's address (json-email-change-routes.ts): the request,
// confirmed by the password, and the link's use; and the 500 of a mail route without delivery.
import { errorEnvelope } from "@tessera/core";
import { INVALID, TAKEN } from "@tessera/fields/messages";
import {
  jsonContent,
  type OpenApiObject,
  type OpenApiPart,
  openApiErrorResponse,
} from "@tessera/http";
import { accountMessages } from "../account-messages.js";
import type { AccountOpenApiOptions } from "../account-openapi.js";
import {
  BEARER_SECURITY,
  fieldRefusals,
  NO_SECURITY,
  sharedAnswers,
} from "../account-openapi-parts.js";
import { noMailerMessage } from "../missing-mailer.js";
import { CURRENT_PASSWORD_REQUEST, currentPasswordRefusals } from "../password/password-openapi.js";
import { CLIENT_RATE_LIMIT, USER_SCHEMA } from "../users/users-openapi.js";

/** The 500 of a mail route in a deployment whose app has a mail setting left out. */
export const NO_MAILER_ANSWER: OpenApiObject = openApiErrorResponse(
  "The app sends mail but this deployment configures no delivery (`missingMailer`): the message names the setting.",
  errorEnvelope(500, noMailerMessage("MAIL_ADAPTER")),
);

/** A 202 that says, in the request's language, what was mailed: `example` in English. */
export function mailedAnswer(description: string, example: string): OpenApiObject {
  return {
    description,
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: { message: { type: "string" } },
          required: ["message"],
          additionalProperties: false,
        },
        example: { message: example },
      },
    },
  };
}

const TAG = "email-change";
const body = (schema: OpenApiObject) => ({ required: true, ...jsonContent(schema) });

/**
 * The OpenAPI part of `POST /api/auth/email` (a link to the new address, nothing changed yet)
 * and `POST /api/auth/email/confirm` (the link's token: the address changes).
 */
export function emailChangeOpenApi(_options: AccountOpenApiOptions): OpenApiPart {
  return {
    tags: [
      {
        name: TAG,
        description:
          "Moving the account to a new address, which takes effect once the link mailed to it is used.",
      },
    ],
    paths: {
      "/api/auth/email": {
        post: {
          tags: [TAG],
          operationId: "requestEmailChange",
          summary: "Ask to move to a new address: a link is mailed to it",
          description: `The user's own token, never an API key. The link goes to the new address and a notice to the current one; a pending request is replaced. Limited per client and per new address (${CLIENT_RATE_LIMIT}).`,
          security: BEARER_SECURITY,
          requestBody: body({
            type: "object",
            properties: {
              email: { type: "string", description: "The new address (normalized, then checked)." },
              current_password: CURRENT_PASSWORD_REQUEST,
            },
            required: ["email"],
          }),
          responses: {
            "202": mailedAnswer(
              "The link is on its way; nothing changed yet.",
              accountMessages.english["accounts.email_change.sent"],
            ),
            ...sharedAnswers("BadRequest", "Unauthorized", "TooManyRequests"),
            "403": currentPasswordRefusals(),
            "422": fieldRefusals(
              "The new address is blank, invalid, or taken (the user's own included).",
              ["email"],
              { email: [TAKEN] },
            ),
            "500": NO_MAILER_ANSWER,
          },
        },
      },
      "/api/auth/email/confirm": {
        post: {
          tags: [TAG],
          operationId: "confirmEmailChange",
          summary: "Use the link's token: the address changes",
          description: `No bearer: the link is the proof. Limited per client (${CLIENT_RATE_LIMIT}).`,
          security: NO_SECURITY,
          requestBody: body({
            type: "object",
            properties: { token: { type: "string", description: "The token of the mailed link." } },
            required: ["token"],
          }),
          responses: {
            "200": { description: "The user as changed.", ...jsonContent(USER_SCHEMA) },
            ...sharedAnswers("BadRequest", "TooManyRequests"),
            "422": fieldRefusals(
              "`token` for an unknown, used, replaced or expired link; `email` when another account took the address meanwhile.",
              ["token", "email"],
              { token: [INVALID] },
            ),
          },
        },
      },
    },
  };
}
