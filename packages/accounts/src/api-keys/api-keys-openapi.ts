// The OpenAPI part of the JSON API key routes (json-api-key-routes.ts), in the shape
// `apiKeyJson` of @tessera/bearer writes a key.
import { API_KEY_NAME_MAX_LENGTH, API_KEY_NAME_MESSAGES } from "@tessera/bearer";
import { jsonContent, OPENAPI_TIMESTAMP, type OpenApiPart, openApiRef } from "@tessera/http";
import type { AccountOpenApiOptions } from "../account-openapi.js";
import {
  accountRefusals,
  BEARER_SECURITY,
  fieldRefusals,
  sharedAnswers,
} from "../account-openapi-parts.js";
import { RECENT_SIGN_IN_MS } from "../sign-in/recent-sign-in.js";
import { signInErrors } from "../sign-in/sign-in-errors.js";

const ID = { type: "integer", minimum: 1 };
const NAME = { type: "string", minLength: 1, maxLength: API_KEY_NAME_MAX_LENGTH };

/** The OpenAPI part of the JSON API key routes. */
export function apiKeysOpenApi(_options: AccountOpenApiOptions): OpenApiPart {
  const apiKey = openApiRef("schemas", "ApiKey");
  return {
    tags: [
      {
        name: "API keys",
        description:
          "Keys that act as the user with `Authorization: Bearer <key>`, without expiry until deleted. A key's secret is shown once, when it is made; only its digest is kept.",
      },
    ],
    paths: {
      "/api/auth/keys": {
        get: {
          operationId: "listApiKeys",
          tags: ["API keys"],
          summary: "Your API keys, newest first, never their secrets",
          security: BEARER_SECURITY,
          responses: {
            "200": { description: "The keys.", ...jsonContent({ type: "array", items: apiKey }) },
            ...sharedAnswers("Unauthorized"),
          },
        },
        post: {
          operationId: "createApiKey",
          tags: ["API keys"],
          summary: "Make an API key: its secret is in this answer only",
          security: BEARER_SECURITY,
          requestBody: {
            required: true,
            ...jsonContent({
              type: "object",
              properties: { name: { ...NAME, description: "Trimmed." } },
              required: ["name"],
            }),
          },
          responses: {
            "201": {
              description: "The secret and the key (`Cache-Control: no-store`).",
              ...jsonContent({
                type: "object",
                properties: {
                  key: {
                    type: "string",
                    pattern: "^[A-Za-z0-9_-]{43}$",
                    description: "The secret: `Authorization: Bearer <key>`.",
                  },
                  api_key: apiKey,
                },
                required: ["key", "api_key"],
                additionalProperties: false,
              }),
            },
            ...sharedAnswers("BadRequest", "Unauthorized"),
            "403": accountRefusals(
              `Asked with an API key (a key makes no key), by an operator acting as the user, or with a token not made by a full sign-in (the password or a passkey that verified its user, and the second factor of a user who has one) in the last ${RECENT_SIGN_IN_MS / 60_000} minutes (sign in again, or \`POST /api/auth/reauthenticate\`).`,
              [
                signInErrors.apiKeyNotAllowed,
                signInErrors.impersonationNotAllowed,
                signInErrors.reauthenticationRequired,
              ],
            ),
            "422": fieldRefusals("A blank or too long name.", ["name"], {
              name: [API_KEY_NAME_MESSAGES.blank, API_KEY_NAME_MESSAGES.tooLong],
            }),
          },
        },
      },
      "/api/auth/keys/{id}": {
        parameters: [
          { name: "id", in: "path", required: true, description: "The key's id.", schema: ID },
        ],
        delete: {
          operationId: "deleteApiKey",
          tags: ["API keys"],
          summary: "Delete an API key: its next request is a 401",
          description: "A key may delete itself or another key of its user.",
          security: BEARER_SECURITY,
          responses: {
            "204": { description: "Deleted." },
            ...sharedAnswers("Unauthorized", "NotFound"),
            "403": accountRefusals("Asked by an operator acting as the user.", [
              signInErrors.impersonationNotAllowed,
            ]),
          },
        },
      },
    },
    schemas: {
      ApiKey: {
        type: "object",
        properties: {
          id: ID,
          user_id: ID,
          name: NAME,
          last_used_at: { ...OPENAPI_TIMESTAMP, type: ["string", "null"] },
          created_at: OPENAPI_TIMESTAMP,
        },
        required: ["id", "user_id", "name", "last_used_at", "created_at"],
        additionalProperties: false,
      },
    },
  };
}
