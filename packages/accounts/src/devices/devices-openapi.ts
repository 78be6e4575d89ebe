// The OpenAPI part of the JSON device list (json-session-routes.ts), in the shape
// `browserSessionJson` and `appSessionJson` write a device.
import {
  jsonContent,
  OPENAPI_TIMESTAMP,
  type OpenApiPart,
  openApiPath,
  openApiRef,
} from "@tessera/http";
import type { AccountOpenApiOptions } from "../account-openapi.js";
import { accountRefusals, BEARER_SECURITY, sharedAnswers } from "../account-openapi-parts.js";
import { signInErrors } from "../sign-in/sign-in-errors.js";
import { JSON_SESSIONS_PATH } from "./json-session-routes.js";

const DEVICE_ID = { type: "string", pattern: "^(browser|app)-[0-9]+$" };

/** The OpenAPI part of the JSON device list: the browsers and apps signed in as the user. */
export function devicesOpenApi(_options: AccountOpenApiOptions): OpenApiPart {
  return {
    tags: [
      {
        name: "devices",
        description:
          "Where the user is signed in: browsers (cookie sessions, when the app tracks them) and apps (refresh token families, when the app issues them).",
      },
    ],
    paths: {
      [JSON_SESSIONS_PATH]: {
        get: {
          operationId: "listDevices",
          tags: ["devices"],
          summary:
            "Your signed-in browsers, most recently seen first, then your apps, newest first",
          description:
            "Apps signed in before the credentials last changed are left out: they are signed out.",
          security: BEARER_SECURITY,
          responses: {
            "200": {
              description: "The devices.",
              ...jsonContent({ type: "array", items: openApiRef("schemas", "Device") }),
            },
            ...sharedAnswers("Unauthorized"),
          },
        },
      },
      [openApiPath(`${JSON_SESSIONS_PATH}/:id`)]: {
        parameters: [
          {
            name: "id",
            in: "path",
            required: true,
            description: "The device's id, `browser-<n>` or `app-<n>`; any other is a 404.",
            schema: { type: "string" },
          },
        ],
        delete: {
          operationId: "endDevice",
          tags: ["devices"],
          summary: "Sign a device out: a browser at its next request, an app's refresh token now",
          security: BEARER_SECURITY,
          responses: {
            "204": { description: "Signed out." },
            ...sharedAnswers("Unauthorized", "NotFound"),
            "403": accountRefusals(
              "Only the user's own token ends a device: not an API key, nor an operator acting as the user.",
              [signInErrors.apiKeyNotAllowed, signInErrors.impersonationNotAllowed],
            ),
          },
        },
      },
    },
    schemas: {
      Device: {
        type: "object",
        properties: {
          id: DEVICE_ID,
          kind: { enum: ["browser", "app"] },
          user_agent: { type: ["string", "null"] },
          ip_address: { type: ["string", "null"] },
          created_at: {
            ...OPENAPI_TIMESTAMP,
            description: "The sign-in, UTC, `YYYY-MM-DD HH:MM:SS`.",
          },
          last_used_at: {
            ...OPENAPI_TIMESTAMP,
            description:
              "A browser's last request (written at most once an hour), an app's last refresh; UTC, `YYYY-MM-DD HH:MM:SS`.",
          },
          factors: {
            type: "array",
            items: { type: "string" },
            description:
              "What signed it in, first step first (`password`, `magic_link`, `email_code`, `oauth`, `passkey`, then `totp`, `backup_code`, `passkey` or `user_verification`); empty when not recorded.",
          },
        },
        required: [
          "id",
          "kind",
          "user_agent",
          "ip_address",
          "created_at",
          "last_used_at",
          "factors",
        ],
        additionalProperties: false,
      },
    },
  };
}
