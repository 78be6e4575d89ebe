// The OpenAPI part of sign-up, the password token, the signed-in user, deleting the account and
// reauthentication (json-account-routes.ts), with what the other account folders' parts build
// on: the `User` schema, and answers joining a status's own code to account refusals.
import { errorEnvelope, STATUS_ERROR_CODES } from "@tessera/core";
import { INVALID } from "@tessera/fields/messages";
import {
  httpMessages,
  JSON_BODY_FAILURE_PREFIX,
  jsonContent,
  OPENAPI_TIMESTAMP,
  type OpenApiObject,
  type OpenApiPart,
  openApiRef,
} from "@tessera/http";
import {
  MAXIMUM_PASSWORD_LENGTH,
  MINIMUM_PASSWORD_LENGTH,
  PASSWORD_TOO_SHORT,
} from "@tessera/password";
import { DEFAULT_RATE_LIMIT } from "@tessera/ratelimit";
import { accountMessages } from "../account-messages.js";
import type { AccountOpenApiOptions } from "../account-openapi.js";
import {
  accountRefusals,
  BEARER_SECURITY,
  fieldRefusals,
  NO_SECURITY,
  RETRY_AFTER_HEADER,
  SIGN_IN_GRANT_REFUSALS,
  sharedAnswers,
} from "../account-openapi-parts.js";
import { captchaErrors } from "../captcha/captcha-errors.js";
import { CAPTCHA_TOKEN_FIELD } from "../captcha/captcha-middleware.js";
import { passwordErrors } from "../password/password-errors.js";
import {
  NAME_MAXIMUM_LENGTH,
  nameColumn,
  type OperatorColumn,
} from "../profile/operator-columns.js";
import { signInErrors } from "../sign-in/sign-in-errors.js";

/** `$ref` of the `User` schema: the JSON form of a user (`userJson`). */
export const USER_SCHEMA = openApiRef("schemas", "User");

/** The client rate limit every limited account route has by default, in words. */
export const CLIENT_RATE_LIMIT = `${DEFAULT_RATE_LIMIT.limit} a minute per client by default`;

/** A new password as a body gives it: any text, judged by the policy (a 422 on `password`). */
export const NEW_PASSWORD: OpenApiObject = {
  type: "string",
  description: `${MINIMUM_PASSWORD_LENGTH} to ${MAXIMUM_PASSWORD_LENGTH} characters (code points), and never one seen in a data breach where the app checks (\`${accountMessages.english["accounts.password.breached"]}\`); else a 422 on \`password\`.`,
};

/** `refresh` of a way in's body. */
export const REFRESH_REQUEST: OpenApiObject = {
  type: "boolean",
  default: false,
  description:
    "Also answer a `refresh_token` (with `refresh_expires_in`), in an app that issues them.",
};

/** `captcha_token` of a body the captcha reads (sign-up, the password token, the code's request). */
export const CAPTCHA_TOKEN_REQUEST: OpenApiObject = {
  type: "string",
  description:
    "Required in an app with a captcha (Turnstile or hCaptcha): the widget's token. Missing, refused or not verifiable is a 400 `captcha_failed`.",
};

/** The 400 of a route the captcha protects: a body that cannot be read, or `captcha_failed`. */
export const CAPTCHA_BAD_REQUEST = accountRefusals(
  `A body that cannot be read (\`${JSON_BODY_FAILURE_PREFIX}<reason>\`: not JSON, a required key missing or not text, text holding NUL); in an app with a captcha, \`${captchaErrors.captchaFailed.code}\`.`,
  [captchaErrors.captchaFailed],
  {
    common: {
      [STATUS_ERROR_CODES[400]]: errorEnvelope(
        400,
        `${JSON_BODY_FAILURE_PREFIX}missing field \`email\``,
      ),
    },
  },
);

/**
 * The value of an operator column: the example app's `name` exactly, another as any JSON value
 * a column holds. `input`: as a body gives it (its rules are a 422 on its name), else as shown.
 */
export function operatorColumnSchema(column: OperatorColumn, input: boolean): OpenApiObject {
  if (column === nameColumn) {
    const rules = `Trimmed, empty stored as null; one line of at most ${NAME_MAXIMUM_LENGTH} characters`;
    return input
      ? { type: ["string", "null"], description: `${rules} (else a 422 on \`name\`).` }
      : { type: ["string", "null"], maxLength: NAME_MAXIMUM_LENGTH, description: `${rules}.` };
  }
  const description = `The operator column \`${column.name}\`${input ? ", checked by its rules (else a 422 on its name)" : ""}.`;
  return input ? { description } : { type: ["string", "number", "boolean", "null"], description };
}

/** The JSON form of a user (`userJson`), with `extra` optional properties. */
function userSchema(
  columns: readonly OperatorColumn[],
  extra: Readonly<Record<string, OpenApiObject>>,
): OpenApiObject {
  const shown = columns.filter((column) => !column.secret);
  return {
    type: "object",
    properties: {
      id: { type: "integer", minimum: 1 },
      email: { type: "string", description: "Normalized: NFKC, trimmed, lower-case." },
      created_at: OPENAPI_TIMESTAMP,
      updated_at: OPENAPI_TIMESTAMP,
      ...Object.fromEntries(
        shown.map((column) => [column.name, operatorColumnSchema(column, false)]),
      ),
      ...extra,
    },
    required: ["id", "email", "created_at", "updated_at", ...shown.map((column) => column.name)],
    additionalProperties: false,
  };
}

/** `mfa` of `GET /api/auth/me`. */
const FACTORS: OpenApiObject = {
  type: "object",
  description:
    "Only in an app with second factors or passkeys: whether TOTP is on, and how many passkeys the user has.",
  properties: { totp: { type: "boolean" }, passkeys: { type: "integer", minimum: 0 } },
  required: ["totp", "passkeys"],
  additionalProperties: false,
};

const TAG = "users";
const body = (schema: OpenApiObject) => ({ required: true, ...jsonContent(schema) });
const LIMITED = `Limited per client (${CLIENT_RATE_LIMIT}).`;

/** The 401 of `POST /api/auth/token`: its email and password do not match. */
const WRONG_PASSWORD = accountRefusals(
  "The email and password match no account (an unknown email answers alike).",
  [passwordErrors.invalidCredentials],
);

/** The 429 of `POST /api/auth/token`: the client's limit, or the account's throttle. */
const TOKEN_THROTTLED = accountRefusals(
  `Too many requests from this client (\`${STATUS_ERROR_CODES[429]}\`, ${CLIENT_RATE_LIMIT}), or too many wrong passwords for this account from any address (\`${signInErrors.accountThrottled.code}\`): wait \`Retry-After\` seconds.`,
  [signInErrors.accountThrottled],
  {
    common: {
      [STATUS_ERROR_CODES[429]]: errorEnvelope(429, httpMessages.english["http.rate_limited"]),
    },
    headers: RETRY_AFTER_HEADER,
  },
);

/** The 403 of a credential change refused to an API key or an operator acting as the user. */
const NOT_THE_USERS_TOKEN = [signInErrors.apiKeyNotAllowed, signInErrors.impersonationNotAllowed];

function signUpOperation(columns: readonly OperatorColumn[]): OpenApiObject {
  const accepted = columns.filter((column) => column.acceptedAtSignup);
  return {
    tags: [TAG],
    operationId: "signUp",
    summary: "Create an account",
    description: `Creates a user with a password and the operator columns sign-up accepts; other keys are ignored. ${LIMITED}`,
    security: NO_SECURITY,
    requestBody: body({
      type: "object",
      properties: {
        email: {
          type: "string",
          description: "Normalized (NFKC, trimmed, lower-case), then checked.",
        },
        password: NEW_PASSWORD,
        ...Object.fromEntries(
          accepted.map((column) => [column.name, operatorColumnSchema(column, true)]),
        ),
        [CAPTCHA_TOKEN_FIELD]: CAPTCHA_TOKEN_REQUEST,
      },
      required: ["email", "password"],
    }),
    responses: {
      "201": { description: "The user.", ...jsonContent(USER_SCHEMA) },
      "400": CAPTCHA_BAD_REQUEST,
      "422": fieldRefusals(
        "Every failing field at once: `email` blank, invalid or taken; `password` blank, outside the policy or breached; an operator column's own rules.",
        ["email", "password", ...accepted.map((column) => column.name)],
        { email: [INVALID], password: [PASSWORD_TOO_SHORT] },
      ),
      ...sharedAnswers("TooManyRequests"),
    },
  };
}

const TOKEN_OPERATION: OpenApiObject = {
  tags: [TAG],
  operationId: "createToken",
  summary: "Sign in with email and password: a bearer token",
  description: `The password way in. A user with a second factor gets a 403 \`${signInErrors.mfaRequired.code}\` to answer at \`POST /api/auth/token/mfa\`. ${LIMITED} Wrong passwords are also counted per account.`,
  security: NO_SECURITY,
  requestBody: body({
    type: "object",
    properties: {
      email: { type: "string" },
      password: { type: "string" },
      refresh: REFRESH_REQUEST,
      [CAPTCHA_TOKEN_FIELD]: CAPTCHA_TOKEN_REQUEST,
    },
    required: ["email", "password"],
  }),
  responses: {
    ...sharedAnswers("Token"),
    "400": CAPTCHA_BAD_REQUEST,
    "401": WRONG_PASSWORD,
    "403": SIGN_IN_GRANT_REFUSALS.forbidden,
    "429": TOKEN_THROTTLED,
  },
};

const ME_OPERATION: OpenApiObject = {
  tags: [TAG],
  operationId: "getCurrentUser",
  summary: "The bearer's user",
  description: "For a token or an API key.",
  security: BEARER_SECURITY,
  responses: {
    "200": {
      description: "The user, with `mfa` in an app with second factors or passkeys.",
      ...jsonContent(openApiRef("schemas", "UserWithFactors")),
    },
    ...sharedAnswers("Unauthorized"),
  },
};

const DELETE_ME_OPERATION: OpenApiObject = {
  tags: [TAG],
  operationId: "deleteCurrentUser",
  summary: "Delete the account",
  description: `Confirmed with the password (a user without one, who signs in through a provider, gives the email instead); a user with a second factor also needs a token of a recent sign-in with it. The user's own token only, never an API key. ${LIMITED}`,
  security: BEARER_SECURITY,
  requestBody: body({
    type: "object",
    description: "The one the account has: `password`, or `email` for a user without a password.",
    anyOf: [
      {
        properties: { password: { type: "string", description: "The current password." } },
        required: ["password"],
      },
      {
        properties: { email: { type: "string", description: "The account's address." } },
        required: ["email"],
      },
    ],
  }),
  responses: {
    "204": { description: "Deleted, with what the user owned." },
    ...sharedAnswers("BadRequest", "Unauthorized", "TooManyRequests"),
    "403": accountRefusals(
      "A wrong password or email, an API key, an operator acting as the user, or a token without the recent second factor.",
      [
        passwordErrors.passwordIncorrect,
        ...NOT_THE_USERS_TOKEN,
        signInErrors.reauthenticationRequired,
      ],
    ),
    "409": {
      description:
        "The app kept the account (its `beforeUserDeleted` hook): its own code and message, such as `last_owner` while the user is an organization's only owner.",
      ...jsonContent(openApiRef("schemas", "Error")),
    },
  },
};

const REAUTHENTICATE_OPERATION: OpenApiObject = {
  tags: [TAG],
  operationId: "reauthenticate",
  summary: "A fresh token of a full sign-in, for changing credentials",
  description: `The bearer's password again, answered as \`POST /api/auth/token\` answers it (a 403 \`${signInErrors.mfaRequired.code}\` first for a user with a second factor). The user's own token only, never an API key. ${LIMITED}`,
  security: BEARER_SECURITY,
  requestBody: body({
    type: "object",
    properties: { password: { type: "string" }, refresh: REFRESH_REQUEST },
    required: ["password"],
  }),
  responses: {
    ...sharedAnswers("Token", "BadRequest", "TooManyRequests"),
    "401": accountRefusals(
      `No valid bearer (\`${STATUS_ERROR_CODES[401]}\`, with \`WWW-Authenticate: Bearer\`), or a wrong password (\`${passwordErrors.invalidCredentials.code}\`).`,
      [passwordErrors.invalidCredentials],
      {
        common: {
          [STATUS_ERROR_CODES[401]]: errorEnvelope(
            401,
            httpMessages.english["http.unauthenticated"],
          ),
        },
        headers: {
          "WWW-Authenticate": {
            description: `Only with \`${STATUS_ERROR_CODES[401]}\`.`,
            schema: { type: "string", const: "Bearer" },
          },
        },
      },
    ),
    "403": accountRefusals(
      "An API key or an operator acting as the user; a second factor due (a `MfaRequired` body); a banned account.",
      [...NOT_THE_USERS_TOKEN, signInErrors.mfaRequired, signInErrors.accountBanned],
      { bodies: [openApiRef("schemas", "MfaRequired")] },
    ),
  },
};

/**
 * The OpenAPI part of `POST /api/auth/signup`, `POST /api/auth/token`, `GET` and
 * `DELETE /api/auth/me` and `POST /api/auth/reauthenticate`, with the `User` schema (the user's
 * JSON, with the public operator columns of `options`) and `UserWithFactors` (`/me`'s).
 */
export function usersOpenApi(options: AccountOpenApiOptions): OpenApiPart {
  const columns = options.operatorColumns ?? [];
  return {
    tags: [
      {
        name: TAG,
        description:
          "Sign-up, the password way in, the signed-in user, deleting the account and reauthenticating.",
      },
    ],
    paths: {
      "/api/auth/signup": { post: signUpOperation(columns) },
      "/api/auth/token": { post: TOKEN_OPERATION },
      "/api/auth/me": { get: ME_OPERATION, delete: DELETE_ME_OPERATION },
      "/api/auth/reauthenticate": { post: REAUTHENTICATE_OPERATION },
    },
    schemas: {
      User: userSchema(columns, {}),
      UserWithFactors: userSchema(columns, { mfa: FACTORS }),
    },
  };
}
