// What the OpenAPI parts of the account features share: error answers made from the same
// refusal entries the routes answer with, the token body every way in answers, and the
// refusals of the sign-in grant. Each feature folder describes its own routes with these.
import { ENGLISH, type ErrorEnvelope, errorEnvelope, type MessageParams } from "@tessera/core";
import { httpMessages, type OpenApiObject, openApiRef } from "@tessera/http";
import { type AccountErrorEntry, accountErrorEnvelope } from "./account-errors.js";
import { signInErrors } from "./sign-in/sign-in-errors.js";

/**
 * The OpenAPI answer of every refusal of one status on a route: the account refusals `entries`
 * (from the same `defineAccountErrors` entries the route answers with) and the `common` ones
 * every route of its kind gives (an unreadable body's `bad_request`, the bearer's
 * `unauthenticated`, the client's `rate_limited`), by example name. Its schema is the envelope
 * with `error.code` limited to their codes, with an example of each in English. `bodies` are
 * other shapes the same status may have (the `MfaRequired` schema beside a 403's refusals);
 * `headers` those the answer carries (`Retry-After`); `params` fill the entries' messages.
 */
export function accountRefusals(
  description: string,
  entries: readonly AccountErrorEntry[],
  options: {
    readonly common?: Readonly<Record<string, ErrorEnvelope>> | undefined;
    readonly bodies?: readonly OpenApiObject[] | undefined;
    readonly headers?: OpenApiObject | undefined;
    readonly params?: MessageParams | undefined;
  } = {},
): OpenApiObject {
  const common = Object.entries(options.common ?? {});
  const statuses = new Set([
    ...entries.map(({ status }) => status),
    ...common.map(([, envelope]) => envelope.error.status),
  ]);
  if (statuses.size !== 1) throw new Error("accountRefusals: the refusals must share one status");
  const codes = [
    ...new Set([...common.map(([, { error }]) => error.code), ...entries.map(({ code }) => code)]),
  ];
  const envelope: OpenApiObject = {
    allOf: [
      openApiRef("schemas", "Error"),
      {
        type: "object",
        properties: { error: { type: "object", properties: { code: { enum: codes } } } },
      },
    ],
  };
  const schema = options.bodies?.length ? { oneOf: [envelope, ...options.bodies] } : envelope;
  const examples = Object.fromEntries([
    ...common.map(([name, value]) => [name, { value }]),
    ...entries.map((entry) => [
      entry.code,
      { value: accountErrorEnvelope(entry, ENGLISH, options.params) },
    ]),
  ]);
  return {
    description,
    ...(options.headers ? { headers: options.headers } : {}),
    content: { "application/json": { schema, examples } },
  };
}

/**
 * The refusals of `status` whose code is the status's own word (`bad_request`, `not_found`):
 * `messages` by example name, each as the route answers it in English.
 */
export function statusRefusal(
  description: string,
  status: number,
  messages: Readonly<Record<string, string>>,
): OpenApiObject {
  const common = Object.fromEntries(
    Object.entries(messages).map(([name, message]) => [name, errorEnvelope(status, message)]),
  );
  return accountRefusals(description, [], { common });
}

/**
 * The 422 of a route whose `fields` may name only `names`: the `ValidationError` envelope so
 * limited, and an example of each message of `examples` (field → its messages).
 */
export function fieldRefusals(
  description: string,
  names: readonly string[],
  examples: Readonly<Record<string, readonly string[]>>,
): OpenApiObject {
  const fields = { type: "object", propertyNames: { enum: [...names] } };
  const schema = {
    allOf: [
      openApiRef("schemas", "ValidationError"),
      { type: "object", properties: { error: { type: "object", properties: { fields } } } },
    ],
  };
  const values = Object.entries(examples).flatMap(([field, messages]) =>
    messages.map((message, index) => [
      `${field}_${index + 1}`,
      {
        value: errorEnvelope(422, httpMessages.english["http.validation_failed"], {
          fields: { [field]: [message] },
        }),
      },
    ]),
  );
  return {
    description,
    content: { "application/json": { schema, examples: Object.fromEntries(values) } },
  };
}

/** `responses` entries pointing at the shared answers: `{"401": {$ref…Unauthorized}}`. */
export function sharedAnswers(
  ...names: ReadonlyArray<keyof typeof SHARED_ANSWER_STATUS>
): Record<string, OpenApiObject> {
  return Object.fromEntries(
    names.map((name) => [SHARED_ANSWER_STATUS[name], openApiRef("responses", name)]),
  );
}

/** The status of each shared answer of `components.responses` (see `openApiErrorPart`). */
const SHARED_ANSWER_STATUS = {
  BadRequest: "400",
  Unauthorized: "401",
  NotFound: "404",
  ValidationFailed: "422",
  TooManyRequests: "429",
  Token: "200",
} as const;

/** `Retry-After` of a 429, for `accountRefusals`' `headers`. */
export const RETRY_AFTER_HEADER: OpenApiObject = {
  "Retry-After": {
    description: "Seconds to wait before trying again.",
    required: true,
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
};

/** The operation's `security` for a route that needs a bearer token (JWT or API key). */
export const BEARER_SECURITY: readonly OpenApiObject[] = [{ bearerAuth: [] }];
/** The operation's `security` for a route anyone may call. */
export const NO_SECURITY: readonly OpenApiObject[] = [];

/** The token body of every way in (`POST /api/auth/token` and its siblings). */
const TOKEN: OpenApiObject = {
  type: "object",
  properties: {
    token: { type: "string", description: "A JWT for `Authorization: Bearer <token>`." },
    token_type: { const: "Bearer" },
    expires_in: { type: "integer", minimum: 1, description: "Seconds the token is valid." },
    refresh_token: {
      type: "string",
      description:
        'Only when the request asked for one (`"refresh": true`) and the app issues them: exchange it at `POST /api/auth/token/refresh`. Shown this once.',
    },
    refresh_expires_in: {
      type: "integer",
      minimum: 1,
      description: "Seconds until the refresh token's family ends (never extended).",
    },
  },
  required: ["token", "token_type", "expires_in"],
  additionalProperties: false,
};

/** The body of a 403 `mfa_required`: the envelope, and what answers the second step. */
const MFA_REQUIRED: OpenApiObject = {
  type: "object",
  description:
    "The credentials are right but the account has a second factor: answer it at `POST /api/auth/token/mfa` with the `mfa_token` (valid 5 minutes) and one of `methods`.",
  properties: {
    error: {
      type: "object",
      properties: {
        code: { const: "mfa_required" },
        message: { type: "string" },
        status: { const: 403 },
      },
      required: ["code", "message", "status"],
      additionalProperties: false,
    },
    mfa_token: { type: "string" },
    methods: {
      type: "array",
      items: { enum: ["totp", "backup_code", "passkey"] },
      minItems: 1,
    },
  },
  required: ["error", "mfa_token", "methods"],
  additionalProperties: false,
};

/**
 * `components` every account part refers to: the schemas `Token` and `MfaRequired` (put the
 * latter in a 403's `bodies`) and the answer `Token` (a 200 of a way in).
 */
export const ACCOUNT_COMPONENTS = {
  schemas: { Token: TOKEN, MfaRequired: MFA_REQUIRED },
  responses: {
    Token: {
      description:
        "Signed in: a bearer token (`Cache-Control: no-store`), with a refresh token when asked for.",
      content: { "application/json": { schema: openApiRef("schemas", "Token") } },
    },
  },
} as const satisfies {
  schemas: Record<string, OpenApiObject>;
  responses: Record<string, OpenApiObject>;
};

/** The 403 of the sign-in grant, which every way in may answer. */
export const SIGN_IN_GRANT_REFUSALS = {
  /** 403: a second factor is due (`MfaRequired` body) or the account is banned. */
  forbidden: accountRefusals(
    "The account has a second factor (a `MfaRequired` body: answer it at `POST /api/auth/token/mfa`), or an operator banned it.",
    [signInErrors.mfaRequired, signInErrors.accountBanned],
    { bodies: [openApiRef("schemas", "MfaRequired")] },
  ),
};
