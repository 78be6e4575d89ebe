// The OpenAPI part of the passwordless sign-in with a mailed code (json-email-code-routes.ts).
import { jsonContent, type OpenApiObject, type OpenApiPart } from "@tessera/http";
import { accountMessages } from "../account-messages.js";
import type { AccountOpenApiOptions } from "../account-openapi.js";
import {
  accountRefusals,
  NO_SECURITY,
  SIGN_IN_GRANT_REFUSALS,
  sharedAnswers,
} from "../account-openapi-parts.js";
import { CAPTCHA_TOKEN_FIELD } from "../captcha/captcha-middleware.js";
import { mailedAnswer, NO_MAILER_ANSWER } from "../email-change/email-change-openapi.js";
import { passwordErrors } from "../password/password-errors.js";
import { signInErrors } from "../sign-in/sign-in-errors.js";
import {
  CAPTCHA_BAD_REQUEST,
  CAPTCHA_TOKEN_REQUEST,
  CLIENT_RATE_LIMIT,
  REFRESH_REQUEST,
} from "../users/users-openapi.js";
import { EMAIL_CODE_LIFETIME_MS, EMAIL_CODE_MAXIMUM_FAILURES } from "./email-codes.js";

const TAG = "email-code";
const body = (schema: OpenApiObject) => ({ required: true, ...jsonContent(schema) });
const LIMITED = `Limited per client and per address (${CLIENT_RATE_LIMIT}).`;

/**
 * The OpenAPI part of `POST /api/auth/email_code` (a six-digit code mailed to the account) and
 * `POST /api/auth/token/email_code` (the code for a bearer token).
 */
export function emailCodeOpenApi(_options: AccountOpenApiOptions): OpenApiPart {
  return {
    tags: [
      {
        name: TAG,
        description: "Signing in without a password, with a six-digit code mailed to the account.",
      },
    ],
    paths: {
      "/api/auth/email_code": {
        post: {
          tags: [TAG],
          operationId: "requestEmailCode",
          summary: "Mail a sign-in code",
          description: `The same answer for any address, so no account is revealed; an account gets a code valid ${EMAIL_CODE_LIFETIME_MS / 60_000} minutes, and its previous code stops. ${LIMITED}`,
          security: NO_SECURITY,
          requestBody: body({
            type: "object",
            properties: {
              email: { type: "string" },
              [CAPTCHA_TOKEN_FIELD]: CAPTCHA_TOKEN_REQUEST,
            },
            required: ["email"],
          }),
          responses: {
            "202": mailedAnswer(
              "Taken: a code is mailed if an account uses the address.",
              accountMessages.english["accounts.email_code_sent"],
            ),
            "400": CAPTCHA_BAD_REQUEST,
            ...sharedAnswers("TooManyRequests"),
            "500": NO_MAILER_ANSWER,
          },
        },
      },
      "/api/auth/token/email_code": {
        post: {
          tags: [TAG],
          operationId: "createTokenWithEmailCode",
          summary: "Sign in with a mailed code: a bearer token",
          description: `A code works once. A user with a second factor gets a 403 \`${signInErrors.mfaRequired.code}\` to answer at \`POST /api/auth/token/mfa\`. ${LIMITED}`,
          security: NO_SECURITY,
          requestBody: body({
            type: "object",
            properties: {
              email: { type: "string" },
              code: { type: "string", description: "The six digits of the mail." },
              refresh: REFRESH_REQUEST,
            },
            required: ["email", "code"],
          }),
          responses: {
            ...sharedAnswers("Token", "BadRequest", "TooManyRequests"),
            "401": accountRefusals(
              `No account with that address, or a wrong, used, replaced or expired code; any code after ${EMAIL_CODE_MAXIMUM_FAILURES} wrong ones.`,
              [passwordErrors.invalidCredentials],
            ),
            "403": SIGN_IN_GRANT_REFUSALS.forbidden,
          },
        },
      },
    },
  };
}
