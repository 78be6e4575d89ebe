// The OpenAPI part of `PATCH /api/auth/me` (json-profile-routes.ts): the profile columns, each
// checked as at sign-up.
import { JSON_BODY_FAILURE_PREFIX, jsonContent, type OpenApiPart } from "@tessera/http";
import type { AccountOpenApiOptions } from "../account-openapi.js";
import { BEARER_SECURITY, fieldRefusals, sharedAnswers } from "../account-openapi-parts.js";
import { operatorColumnSchema, USER_SCHEMA } from "../users/users-openapi.js";
import { NAME_MAXIMUM_LENGTH, nameColumn } from "./operator-columns.js";
import { profileColumns } from "./update-profile.js";

const TAG = "profile";

/**
 * The OpenAPI part of `PATCH /api/auth/me`: a body of the profile columns of `options` (those
 * sign-up accepts, never a secret one), any other key refused.
 */
export function profileOpenApi(options: AccountOpenApiOptions): OpenApiPart {
  const columns = profileColumns(options.operatorColumns ?? []);
  const names = columns.map((column) => column.name);
  // The example app's column refusing a name too long, as the example of the 422.
  const tooLong = nameColumn.parse("n".repeat(NAME_MAXIMUM_LENGTH + 1));
  const example =
    columns.includes(nameColumn) && !tooLong.ok ? { [nameColumn.name]: [tooLong.reason] } : {};
  return {
    tags: [{ name: TAG, description: "The user's own profile: the app's operator columns." }],
    paths: {
      "/api/auth/me": {
        patch: {
          tags: [TAG],
          operationId: "updateProfile",
          summary: "Change the profile",
          description: `For a token or an API key. A column left out keeps its value; with none, nothing is written. A key that is no profile column is a 400 (\`${JSON_BODY_FAILURE_PREFIX}unknown field …\`).`,
          security: BEARER_SECURITY,
          requestBody: {
            required: true,
            ...jsonContent({
              type: "object",
              properties: Object.fromEntries(
                columns.map((column) => [column.name, operatorColumnSchema(column, true)]),
              ),
              additionalProperties: false,
            }),
          },
          responses: {
            "200": { description: "The user as changed.", ...jsonContent(USER_SCHEMA) },
            ...sharedAnswers("BadRequest", "Unauthorized"),
            // Without a profile column nothing can fail.
            ...(names.length > 0
              ? {
                  "422": fieldRefusals(
                    "Every failing column at once, by its rules.",
                    names,
                    example,
                  ),
                }
              : {}),
          },
        },
      },
    },
  };
}
