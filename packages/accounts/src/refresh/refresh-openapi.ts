// The OpenAPI part of exchanging and revoking an app's refresh token (json-refresh-routes.ts).
import { jsonContent, type OpenApiObject, type OpenApiPart } from "@tessera/http";
import type { AccountOpenApiOptions } from "../account-openapi.js";
import { accountRefusals, NO_SECURITY, sharedAnswers } from "../account-openapi-parts.js";
import { passwordErrors } from "../password/password-errors.js";
import { REFRESH_PATH } from "./json-refresh-routes.js";

const TAG = "refresh";

/** The body of both routes: the refresh token, the credential itself. */
const REFRESH_TOKEN_BODY: OpenApiObject = {
  required: true,
  ...jsonContent({
    type: "object",
    properties: {
      refresh_token: {
        type: "string",
        description: "From a way in asked with `refresh: true`, or from the last refresh.",
      },
    },
    required: ["refresh_token"],
  }),
};

/**
 * The OpenAPI part of `POST` (a new access token and a new refresh token) and `DELETE` (the
 * family revoked) `/api/auth/token/refresh`. Neither takes a bearer.
 */
export function refreshOpenApi(_options: AccountOpenApiOptions): OpenApiPart {
  return {
    tags: [
      {
        name: TAG,
        description:
          "An app's sign-in kept alive by refresh tokens, rotated at each use, and its sign-out.",
      },
    ],
    paths: {
      [REFRESH_PATH]: {
        post: {
          tags: [TAG],
          operationId: "refreshToken",
          summary: "Exchange a refresh token for a new token pair",
          description:
            "The refresh token given is used up; the new access token carries the original sign-in (never a recent one), and the family's end does not move.",
          security: NO_SECURITY,
          requestBody: REFRESH_TOKEN_BODY,
          responses: {
            ...sharedAnswers("Token", "BadRequest"),
            "401": accountRefusals(
              "A refresh token unknown, used (past the grace: its whole family is revoked), revoked or expired; or its user gone, banned, or with credentials changed since the sign-in (the family is revoked).",
              [passwordErrors.invalidCredentials],
            ),
          },
        },
        delete: {
          tags: [TAG],
          operationId: "revokeRefreshToken",
          summary: "Sign the app out: revoke the refresh token's family",
          description: "The same 204 for a token it does not know, so the answer tells nothing.",
          security: NO_SECURITY,
          requestBody: REFRESH_TOKEN_BODY,
          responses: {
            "204": { description: "Revoked (or unknown)." },
            ...sharedAnswers("BadRequest"),
          },
        },
      },
    },
  };
}
