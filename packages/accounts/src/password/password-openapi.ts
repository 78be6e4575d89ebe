// The OpenAPI part of `POST /api/auth/password` (json-password-routes.ts), and the 403 of every
// change the current password confirms (current-password.ts), which the email change shares.
import { jsonContent, type OpenApiObject, type OpenApiPart, openApiRef } from "@tessera/http";
import { PASSWORD_TOO_SHORT } from "@tessera/password";
import type { AccountOpenApiOptions } from "../account-openapi.js";
import {
  accountRefusals,
  BEARER_SECURITY,
  fieldRefusals,
  sharedAnswers,
} from "../account-openapi-parts.js";
import { RECENT_SIGN_IN_MS } from "../sign-in/recent-sign-in.js";
import { signInErrors } from "../sign-in/sign-in-errors.js";
import { CLIENT_RATE_LIMIT, NEW_PASSWORD } from "../users/users-openapi.js";
import { passwordErrors } from "./password-errors.js";

const RECENT_MINUTES = RECENT_SIGN_IN_MS / 60_000;

/** `current_password` of a change it confirms. */
export const CURRENT_PASSWORD_REQUEST: OpenApiObject = {
  type: "string",
  description: `Required from a user with a password (missing or not text: a 400); a user without one leaves it out and needs a full sign-in of the last ${RECENT_MINUTES} minutes.`,
};

/**
 * The 403 of a change the current password confirms (`refuseWithoutCurrentPassword`): an API
 * key or an operator acting as the user, a wrong current password, a token without the recent
 * sign-in the rest of the proof needs.
 */
export function currentPasswordRefusals(): OpenApiObject {
  return accountRefusals(
    `An API key or an operator acting as the user (never allowed); a wrong \`current_password\` (\`${passwordErrors.passwordIncorrect.code}\`); a token without a recent sign-in with the second factor, for a user with one, or without a full sign-in of the last ${RECENT_MINUTES} minutes, for a user without a password (\`${signInErrors.reauthenticationRequired.code}\`: sign in again or call \`POST /api/auth/reauthenticate\`).`,
    [
      signInErrors.apiKeyNotAllowed,
      signInErrors.impersonationNotAllowed,
      passwordErrors.passwordIncorrect,
      signInErrors.reauthenticationRequired,
    ],
  );
}

const TAG = "password";

/** The OpenAPI part of `POST /api/auth/password`. */
export function passwordOpenApi(_options: AccountOpenApiOptions): OpenApiPart {
  return {
    tags: [{ name: TAG, description: "Changing the password of the signed-in user." }],
    paths: {
      "/api/auth/password": {
        post: {
          tags: [TAG],
          operationId: "changePassword",
          summary: "Change the password",
          description: `The user's own token, never an API key. Where the app sends mail, a notice goes to the account's address. Limited per client (${CLIENT_RATE_LIMIT}).`,
          security: BEARER_SECURITY,
          requestBody: {
            required: true,
            ...jsonContent({
              type: "object",
              properties: {
                current_password: CURRENT_PASSWORD_REQUEST,
                password: NEW_PASSWORD,
                sign_out_others: {
                  type: "boolean",
                  default: true,
                  description:
                    "End every token and session signed in before the change (API keys stay).",
                },
              },
              required: ["password"],
            }),
          },
          responses: {
            "200": {
              description:
                "Changed: a fresh token standing for the same sign-in (`Cache-Control: no-store`), never a refresh token.",
              ...jsonContent(openApiRef("schemas", "Token")),
            },
            ...sharedAnswers("BadRequest", "Unauthorized", "TooManyRequests"),
            "403": currentPasswordRefusals(),
            "422": fieldRefusals(
              "The new password is blank, outside the policy, or breached.",
              ["password"],
              { password: [PASSWORD_TOO_SHORT] },
            ),
          },
        },
      },
    },
  };
}
