// The OpenAPI part of the JSON routes of TOTP, backup codes and the second step of a sign-in
// (json-second-factor-routes.ts), made from the refusal entries and limits those routes use.
import { errorEnvelope, INVALID } from "@tessera/core";
import {
  httpMessages,
  jsonContent,
  type OpenApiObject,
  type OpenApiPart,
  openApiRef,
} from "@tessera/http";
import type { AccountOpenApiOptions } from "../account-openapi.js";
import {
  accountRefusals,
  BEARER_SECURITY,
  fieldRefusals,
  NO_SECURITY,
  RETRY_AFTER_HEADER,
  sharedAnswers,
} from "../account-openapi-parts.js";
import { passkeyErrors } from "../passkey/passkey-errors.js";
import { passwordErrors } from "../password/password-errors.js";
import { RECENT_SIGN_IN_MS } from "../sign-in/recent-sign-in.js";
import { signInErrors } from "../sign-in/sign-in-errors.js";
import { BACKUP_CODE_COUNT } from "./backup-codes.js";
import { secondFactorErrors } from "./second-factor-errors.js";
import { MFA_MAXIMUM_FAILURES, MFA_TOKEN_LIFETIME_MS } from "./second-factor-sign-in.js";
import { TOTP_DIGITS, TOTP_KEY_BYTES, TOTP_PERIOD_SECONDS } from "./totp.js";

// The refusals every route of its kind gives, beside a route's own of the same status.
const BEARER_REFUSAL = {
  unauthenticated: errorEnvelope(401, httpMessages.english["http.unauthenticated"]),
};
const RATE_LIMIT_REFUSAL = {
  rate_limited: errorEnvelope(429, httpMessages.english["http.rate_limited"]),
};

const PASSWORD_BODY: OpenApiObject = {
  required: true,
  ...jsonContent({
    type: "object",
    properties: { password: { type: "string", description: "The account's password." } },
    required: ["password"],
  }),
};

/** The 401 of a bearer route that also checks the password. */
const PASSWORD_401 = accountRefusals(
  "No valid bearer token (`unauthenticated`, with `WWW-Authenticate: Bearer`), or a wrong `password` (`invalid_credentials`).",
  [passwordErrors.invalidCredentials],
  {
    common: BEARER_REFUSAL,
    headers: { "WWW-Authenticate": { schema: { type: "string", const: "Bearer" } } },
  },
);

/** The 403 of a route that changes factors. */
const CHANGE_403 = accountRefusals(
  `Asked with an API key, by an operator acting as the user, or, for a user with a second factor on, with a token not made by a sign-in with it in the last ${RECENT_SIGN_IN_MS / 60_000} minutes (sign in again, or \`POST /api/auth/reauthenticate\`).`,
  [
    signInErrors.apiKeyNotAllowed,
    signInErrors.impersonationNotAllowed,
    signInErrors.reauthenticationRequired,
  ],
);

const BACKUP_CODES: OpenApiObject = {
  type: "object",
  description: "Shown this once: only their digests are kept. Each one answers one second step.",
  properties: {
    backup_codes: {
      type: "array",
      items: { type: "string", pattern: "^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$" },
      minItems: BACKUP_CODE_COUNT,
      maxItems: BACKUP_CODE_COUNT,
    },
  },
  required: ["backup_codes"],
  additionalProperties: false,
};

const TOTP_SETUP: OpenApiObject = {
  type: "object",
  properties: {
    secret: {
      type: "string",
      pattern: `^[A-Z2-7]{${Math.ceil((TOTP_KEY_BYTES * 8) / 5)}}$`,
      description: "The key in base32 without padding, for typing in by hand.",
    },
    uri: {
      type: "string",
      pattern: "^otpauth://totp/",
      description: `The \`otpauth://\` URI for an authenticator app (SHA-1, ${TOTP_DIGITS} digits, ${TOTP_PERIOD_SECONDS} s).`,
    },
    qr_svg: {
      type: "string",
      pattern: "^<svg ",
      description: "The URI as a QR code: an SVG document, no script, no external reference.",
    },
  },
  required: ["secret", "uri", "qr_svg"],
  additionalProperties: false,
};

/** A bearer operation of this part: its tag, security, and the shared 401 and 429. */
function bearerOperation(operation: OpenApiObject & { responses: OpenApiObject }): OpenApiObject {
  return {
    tags: ["second factor"],
    security: BEARER_SECURITY,
    ...operation,
    responses: { ...sharedAnswers("Unauthorized", "TooManyRequests"), ...operation.responses },
  };
}

const MFA_TOKEN = {
  type: "string",
  description: `The \`mfa_token\` of the 403 \`mfa_required\`: valid ${MFA_TOKEN_LIFETIME_MS / 60_000} minutes, void after ${MFA_MAXIMUM_FAILURES} wrong answers.`,
};

const VOID_MFA_TOKEN = accountRefusals(
  "A wrong answer, or an `mfa_token` unknown, expired, used or void: sign in again.",
  [passwordErrors.invalidCredentials],
);

/**
 * The OpenAPI part of the JSON routes of TOTP, backup codes and a sign-in's second step. The
 * WebAuthn shapes its passkey answer refers to (`PasskeyRequestOptions`,
 * `PasskeyAuthenticationResponse`) are defined by the passkey part.
 */
export function secondFactorOpenApi(_options: AccountOpenApiOptions): OpenApiPart {
  return {
    tags: [
      {
        name: "second factor",
        description:
          "TOTP (an authenticator app) with its backup codes, and the second step of a sign-in of a user who has them on. Each route is rate limited per client address.",
      },
    ],
    paths: {
      "/api/auth/mfa/totp": {
        post: bearerOperation({
          operationId: "beginTotp",
          summary: "Start a TOTP enrolment: a new key, pending until confirmed",
          description:
            "Sign-in is unchanged until `POST /api/auth/mfa/totp/confirm`; starting again replaces a pending key.",
          requestBody: PASSWORD_BODY,
          responses: {
            "201": {
              description: "The key to add to the app.",
              ...jsonContent(openApiRef("schemas", "TotpSetup")),
            },
            ...sharedAnswers("BadRequest"),
            "401": PASSWORD_401,
            "403": CHANGE_403,
            "409": accountRefusals("TOTP is already on.", [secondFactorErrors.totpAlreadyEnabled]),
          },
        }),
        delete: bearerOperation({
          operationId: "disableTotp",
          summary: "Turn TOTP off, its backup codes with it",
          description: "Answers 204 as well when TOTP was not on.",
          requestBody: PASSWORD_BODY,
          responses: {
            "204": { description: "TOTP and the backup codes are removed." },
            ...sharedAnswers("BadRequest"),
            "401": PASSWORD_401,
            "403": CHANGE_403,
          },
        }),
      },
      "/api/auth/mfa/totp/confirm": {
        post: bearerOperation({
          operationId: "confirmTotp",
          summary: "Confirm the pending enrolment with a code from the app: TOTP is on",
          requestBody: {
            required: true,
            ...jsonContent({
              type: "object",
              properties: {
                code: {
                  type: "string",
                  description: `A code from the app: ${TOTP_DIGITS} digits (spaces allowed), of the current ${TOTP_PERIOD_SECONDS} s step or one either side.`,
                },
              },
              required: ["code"],
            }),
          },
          responses: {
            "200": {
              description: `TOTP is on; its ${BACKUP_CODE_COUNT} backup codes.`,
              ...jsonContent(openApiRef("schemas", "BackupCodes")),
            },
            ...sharedAnswers("BadRequest"),
            "422": fieldRefusals("The code is not the app's current one.", ["code"], {
              code: [INVALID],
            }),
            "409": accountRefusals("No enrolment is pending.", [secondFactorErrors.totpNotPending]),
          },
        }),
      },
      "/api/auth/mfa/backup_codes": {
        post: bearerOperation({
          operationId: "regenerateBackupCodes",
          summary: `${BACKUP_CODE_COUNT} new backup codes: the old ones stop working`,
          requestBody: PASSWORD_BODY,
          responses: {
            "200": {
              description: "The new codes.",
              ...jsonContent(openApiRef("schemas", "BackupCodes")),
            },
            ...sharedAnswers("BadRequest"),
            "401": PASSWORD_401,
            "403": CHANGE_403,
            "409": accountRefusals("TOTP is not on.", [secondFactorErrors.totpNotEnabled]),
          },
        }),
      },
      "/api/auth/token/mfa": {
        post: {
          operationId: "answerSecondFactor",
          tags: ["second factor"],
          summary: "The second step of a sign-in: a code or a passkey for the `mfa_token`",
          description: `Every answer counts against the \`mfa_token\` and against the account (from any address), before it is judged. A passkey that was the first step cannot answer its own second step.`,
          security: NO_SECURITY,
          requestBody: {
            required: true,
            ...jsonContent({
              type: "object",
              properties: {
                mfa_token: MFA_TOKEN,
                code: {
                  type: "string",
                  description: `A TOTP code (${TOTP_DIGITS} digits) or an unused backup code (\`xxxxx-xxxxx\`). Not read when \`passkey\` is there.`,
                },
                passkey: {
                  ...openApiRef("schemas", "PasskeyAuthenticationResponse"),
                  description:
                    "What `navigator.credentials.get()` answered for the options of `POST /api/auth/token/mfa/options`.",
                },
                refresh: {
                  type: "boolean",
                  description: "Ask for a refresh token as well (default false).",
                },
              },
              required: ["mfa_token"],
              // One of the two answers (the properties above say their types).
              anyOf: ["code", "passkey"].map((answer) => ({
                type: "object",
                properties: { [answer]: true },
                required: [answer],
              })),
            }),
          },
          responses: {
            ...sharedAnswers("Token", "BadRequest"),
            "401": VOID_MFA_TOKEN,
            "403": accountRefusals("An operator banned the account.", [signInErrors.accountBanned]),
            "429": accountRefusals(
              "Too many requests from this client (`rate_limited`), or too many wrong answers for this account from any address (`account_throttled`): wait `Retry-After` seconds.",
              [signInErrors.accountThrottled],
              { common: RATE_LIMIT_REFUSAL, headers: RETRY_AFTER_HEADER },
            ),
          },
        },
      },
      "/api/auth/token/mfa/options": {
        post: {
          operationId: "secondFactorPasskeyOptions",
          tags: ["second factor"],
          summary: "The WebAuthn options for answering the `mfa_token` with a passkey",
          security: NO_SECURITY,
          requestBody: {
            required: true,
            ...jsonContent({
              type: "object",
              properties: { mfa_token: MFA_TOKEN },
              required: ["mfa_token"],
            }),
          },
          responses: {
            "200": {
              description:
                "For `navigator.credentials.get()`, allowing the user's passkeys; its answer goes to `POST /api/auth/token/mfa` as `passkey`.",
              ...jsonContent(openApiRef("schemas", "PasskeyRequestOptions")),
            },
            ...sharedAnswers("BadRequest", "TooManyRequests"),
            "401": accountRefusals("The `mfa_token` is unknown, expired, used or void.", [
              passwordErrors.invalidCredentials,
            ]),
            "409": accountRefusals(
              "The user has no passkey (or the first step was the passkey): answer with a code.",
              [passkeyErrors.noPasskey],
            ),
          },
        },
      },
    },
    schemas: { TotpSetup: TOTP_SETUP, BackupCodes: BACKUP_CODES },
  };
}
