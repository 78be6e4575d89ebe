// The OpenAPI document of the built-in account routes alone, as an app's document has them:
// the parts of `accountOpenApi()` merged with the shared error answers and the bearer scheme.
// The client's `AccountPaths` (src/account-api.d.ts) are generated from it.
import { accountOpenApi } from "@tessera/accounts";
import { DEFAULT_MAXIMUM_BODY_BYTES, mergeOpenApiParts, openApiErrorPart } from "@tessera/http";

/** The OpenAPI 3.1 document of every JSON account route. */
export function accountApiDocument(): Record<string, unknown> {
  return mergeOpenApiParts(
    {
      openapi: "3.1.0",
      info: {
        title: "Tessera accounts",
        version: "0.1.0",
        description: "The JSON account routes of @tessera/accounts.",
      },
      security: [{ bearerAuth: [] }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: "http",
            scheme: "bearer",
            description:
              "`Authorization: Bearer <token>`: a JWT from `POST /api/auth/token` or an API key.",
          },
        },
      },
    },
    [openApiErrorPart(DEFAULT_MAXIMUM_BODY_BYTES), ...accountOpenApi()],
  );
}
