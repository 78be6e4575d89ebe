// The OpenAPI part of the JSON passkey routes (json-passkey-routes.ts): adding, listing and
// removing passkeys, and signing in with one. The WebAuthn options and credentials are
// @simplewebauthn's JSON shapes, described by their main members (more are allowed).
import { BLANK, errorEnvelope, tooLongMessage } from "@tessera/core";
import {
  JSON_BODY_FAILURE_PREFIX,
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
  SIGN_IN_GRANT_REFUSALS,
  sharedAnswers,
} from "../account-openapi-parts.js";
import { passwordErrors } from "../password/password-errors.js";
import { RECENT_SIGN_IN_MS } from "../sign-in/recent-sign-in.js";
import { signInErrors } from "../sign-in/sign-in-errors.js";
import { passkeyErrors } from "./passkey-errors.js";
import { DEFAULT_PASSKEY_NAME } from "./passkey-name.js";
import { MAXIMUM_PASSKEY_NAME_LENGTH, PASSKEY_CHALLENGE_LIFETIME_MS } from "./passkeys.js";

const ID = { type: "integer", minimum: 1 };
const NAME = { type: "string", minLength: 1, maxLength: MAXIMUM_PASSKEY_NAME_LENGTH };
const INSTANT = { type: "string", format: "date-time", description: "UTC, ISO 8601." };
const BASE64URL = { type: "string", pattern: "^[A-Za-z0-9_-]*$" };
const CREDENTIAL_DESCRIPTOR = {
  type: "object",
  properties: { id: BASE64URL, type: { const: "public-key" } },
  required: ["id", "type"],
};

/** A credential's JSON as a browser's `toJSON()` gives it, with `response`'s members. */
function credentialResponse(members: readonly string[], description: string): OpenApiObject {
  return {
    type: "object",
    description,
    properties: {
      id: BASE64URL,
      rawId: BASE64URL,
      type: { const: "public-key" },
      response: {
        type: "object",
        properties: Object.fromEntries(members.map((member) => [member, BASE64URL])),
        required: members,
      },
      clientExtensionResults: { type: "object" },
    },
    required: ["id", "rawId", "type", "response"],
  };
}

const SCHEMAS: Readonly<Record<string, OpenApiObject>> = {
  Passkey: {
    type: "object",
    description: "A passkey of the user: never its public key or signature counter.",
    properties: {
      id: ID,
      name: NAME,
      created_at: INSTANT,
      last_used_at: { ...INSTANT, type: ["string", "null"] },
    },
    required: ["id", "name", "created_at", "last_used_at"],
    additionalProperties: false,
  },
  PasskeyCreationOptions: {
    type: "object",
    description:
      "`PublicKeyCredentialCreationOptionsJSON` for `navigator.credentials.create()`: resident key and user verification preferred, the user's passkeys excluded.",
    properties: {
      rp: {
        type: "object",
        properties: { name: { type: "string" }, id: { type: "string" } },
        required: ["name"],
      },
      user: {
        type: "object",
        properties: {
          id: BASE64URL,
          name: { type: "string" },
          displayName: { type: "string" },
        },
        required: ["id", "name", "displayName"],
      },
      challenge: BASE64URL,
      pubKeyCredParams: {
        type: "array",
        items: {
          type: "object",
          properties: { alg: { type: "integer" }, type: { const: "public-key" } },
          required: ["alg", "type"],
        },
      },
      timeout: { type: "integer", const: PASSKEY_CHALLENGE_LIFETIME_MS },
      excludeCredentials: { type: "array", items: CREDENTIAL_DESCRIPTOR },
    },
    required: ["rp", "user", "challenge", "pubKeyCredParams"],
  },
  PasskeyRequestOptions: {
    type: "object",
    description:
      "`PublicKeyCredentialRequestOptionsJSON` for `navigator.credentials.get()`, user verification preferred.",
    properties: {
      challenge: BASE64URL,
      rpId: { type: "string" },
      timeout: { type: "integer", const: PASSKEY_CHALLENGE_LIFETIME_MS },
      allowCredentials: { type: "array", items: CREDENTIAL_DESCRIPTOR },
      userVerification: { enum: ["required", "preferred", "discouraged"] },
    },
    required: ["challenge"],
  },
  PasskeyRegistrationResponse: credentialResponse(
    ["clientDataJSON", "attestationObject"],
    "`RegistrationResponseJSON`: what `navigator.credentials.create()` answered.",
  ),
  PasskeyAuthenticationResponse: credentialResponse(
    ["clientDataJSON", "authenticatorData", "signature"],
    "`AuthenticationResponseJSON`: what `navigator.credentials.get()` answered.",
  ),
};

/** A bearer operation of this part: its tag, security, and the shared 401 and 429. */
function bearerOperation(operation: OpenApiObject & { responses: OpenApiObject }): OpenApiObject {
  return {
    tags: ["passkeys"],
    security: BEARER_SECURITY,
    ...operation,
    responses: { ...sharedAnswers("Unauthorized", "TooManyRequests"), ...operation.responses },
  };
}

/** The 403 of adding or removing a passkey. */
const CHANGE_403 = accountRefusals(
  `Asked with an API key, by an operator acting as the user, or with a token not made by a full sign-in (the password or a passkey that verified its user, and the second factor of a user who has one) in the last ${RECENT_SIGN_IN_MS / 60_000} minutes (sign in again, or \`POST /api/auth/reauthenticate\`).`,
  [
    signInErrors.apiKeyNotAllowed,
    signInErrors.impersonationNotAllowed,
    signInErrors.reauthenticationRequired,
  ],
);

/** The OpenAPI part of the JSON passkey routes. */
export function passkeyOpenApi(_options: AccountOpenApiOptions): OpenApiPart {
  const passkey = openApiRef("schemas", "Passkey");
  return {
    tags: [
      {
        name: "passkeys",
        description: `Passkeys (WebAuthn): adding one takes options then the browser's answer, within ${PASSKEY_CHALLENGE_LIFETIME_MS / 60_000} minutes; so does signing in with one. Each route is rate limited per client address.`,
      },
    ],
    paths: {
      "/api/auth/passkeys": {
        get: bearerOperation({
          operationId: "listPasskeys",
          summary: "Your passkeys",
          responses: {
            "200": {
              description: "The passkeys.",
              ...jsonContent({ type: "array", items: passkey }),
            },
          },
        }),
        post: bearerOperation({
          operationId: "addPasskey",
          summary:
            "Add a passkey: the browser's answer to the options of `POST /api/auth/passkeys/options`",
          requestBody: {
            required: true,
            ...jsonContent({
              type: "object",
              properties: {
                name: {
                  type: ["string", "null"],
                  description: `Trimmed; \`${DEFAULT_PASSKEY_NAME}\` when left out or null.`,
                },
                response: openApiRef("schemas", "PasskeyRegistrationResponse"),
              },
              required: ["response"],
            }),
          },
          responses: {
            "201": {
              description: "The passkey.",
              ...jsonContent({
                type: "object",
                properties: { id: ID, name: NAME, created_at: INSTANT },
                required: ["id", "name", "created_at"],
                additionalProperties: false,
              }),
            },
            "400": accountRefusals(
              "A body that cannot be read (`bad_request`), or a `response` that does not verify, answers no live challenge of yours or holds a passkey already added (`passkey_invalid`).",
              [passkeyErrors.passkeyInvalid],
              {
                common: {
                  bad_request: errorEnvelope(
                    400,
                    `${JSON_BODY_FAILURE_PREFIX}missing field \`response\``,
                  ),
                },
              },
            ),
            "403": CHANGE_403,
            "422": fieldRefusals("A blank or too long name.", ["name"], {
              name: [BLANK, tooLongMessage(MAXIMUM_PASSKEY_NAME_LENGTH)],
            }),
          },
        }),
      },
      "/api/auth/passkeys/options": {
        post: bearerOperation({
          operationId: "passkeyCreationOptions",
          summary: "The WebAuthn options for adding a passkey",
          responses: {
            "200": {
              description: "For `navigator.credentials.create()`.",
              ...jsonContent(openApiRef("schemas", "PasskeyCreationOptions")),
            },
            "403": CHANGE_403,
          },
        }),
      },
      "/api/auth/passkeys/{id}": {
        parameters: [
          { name: "id", in: "path", required: true, description: "The passkey's id.", schema: ID },
        ],
        delete: bearerOperation({
          operationId: "removePasskey",
          summary: "Remove a passkey: it signs nobody in any more",
          responses: {
            "204": { description: "Removed." },
            "403": CHANGE_403,
            ...sharedAnswers("NotFound"),
          },
        }),
      },
      "/api/auth/passkeys/login/options": {
        post: {
          operationId: "passkeySignInOptions",
          tags: ["passkeys"],
          summary: "The WebAuthn options for signing in with a passkey",
          security: NO_SECURITY,
          responses: {
            "200": {
              description: "The options, and the handle to send back with the answer.",
              ...jsonContent({
                type: "object",
                properties: {
                  options: openApiRef("schemas", "PasskeyRequestOptions"),
                  challenge_id: { ...BASE64URL, description: "The options' challenge." },
                },
                required: ["options", "challenge_id"],
                additionalProperties: false,
              }),
            },
            ...sharedAnswers("TooManyRequests"),
          },
        },
      },
      "/api/auth/passkeys/login": {
        post: {
          operationId: "signInWithPasskey",
          tags: ["passkeys"],
          summary: "Sign in with a passkey",
          description:
            "A passkey that verified its user (PIN, biometrics) is both factors; one that only saw a touch is one, and a user with a second factor then answers `mfa_required` with a code.",
          security: NO_SECURITY,
          requestBody: {
            required: true,
            ...jsonContent({
              type: "object",
              properties: {
                challenge_id: { type: "string" },
                response: {
                  ...openApiRef("schemas", "PasskeyAuthenticationResponse"),
                  description: "Left out or unverifiable, it is a 401 as a wrong one is.",
                },
                refresh: {
                  type: "boolean",
                  description: "Ask for a refresh token as well (default false).",
                },
              },
              required: ["challenge_id", "response"],
            }),
          },
          responses: {
            ...sharedAnswers("Token", "BadRequest", "TooManyRequests"),
            "401": accountRefusals(
              "The answer does not verify, its challenge is not live, or its passkey is not registered.",
              [passwordErrors.invalidCredentials],
            ),
            "403": SIGN_IN_GRANT_REFUSALS.forbidden,
          },
        },
      },
    },
    schemas: SCHEMAS,
  };
}
