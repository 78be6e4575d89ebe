import { errorEnvelope } from "@tessera/core";
import {
  jsonContent,
  type OpenApiObject,
  type OpenApiPart,
  openApiErrorResponse,
  openApiPath,
  openApiRef,
} from "@tessera/http";
import { DEFAULT_MAXIMUM_GRAPHQL_BODY_BYTES } from "./graphql-body-limit.js";

/** A GraphQL response (GraphQL over HTTP): `data`, `errors` or both. */
const GRAPHQL_RESPONSE: OpenApiObject = {
  type: "object",
  properties: {
    data: { type: ["object", "null"], description: "The operation's result." },
    errors: {
      type: "array",
      items: {
        type: "object",
        properties: {
          message: { type: "string" },
          path: { type: "array", items: { type: ["string", "integer"] } },
          locations: { type: "array", items: { type: "object" } },
          extensions: {
            type: "object",
            description:
              "`code` and `status` for a refusal of ours (`not_found`, `validation_failed` with `fields`…).",
          },
        },
        required: ["message"],
      },
    },
    extensions: { type: "object" },
  },
};

const GRAPHQL_REQUEST: OpenApiObject = {
  type: "object",
  properties: {
    query: { type: "string", description: "The GraphQL document." },
    variables: { type: ["object", "null"] },
    operationName: { type: ["string", "null"] },
    extensions: { type: ["object", "null"] },
  },
  required: ["query"],
};

/** An answer whose body is a GraphQL response or, for a request it cannot read, the envelope. */
const graphqlOrEnvelope = (description: string): OpenApiObject => ({
  description,
  ...jsonContent({ oneOf: [GRAPHQL_RESPONSE, openApiRef("schemas", "Error")] }),
});

/**
 * The OpenAPI part of `graphqlRoutes` at `path` (default `/graphql`): `POST` with a GraphQL
 * request, `GET` with it in the query string (queries only). The operations themselves are
 * described by the GraphQL schema, which introspection serves; this says how to reach it.
 */
export function graphqlOpenApi(
  options: {
    readonly path?: string | undefined;
    readonly maximumBodyBytes?: number | undefined;
  } = {},
): OpenApiPart {
  const path = openApiPath(options.path ?? "/graphql");
  const maximumBytes = options.maximumBodyBytes ?? DEFAULT_MAXIMUM_GRAPHQL_BODY_BYTES;
  const answers = {
    "200": {
      description: "The operation ran: its `data`, with `errors` for what failed inside it.",
      ...jsonContent(GRAPHQL_RESPONSE),
    },
    "400": graphqlOrEnvelope(
      "A request that is no GraphQL request (no `query`, unparsable or invalid document, variables of the wrong type, over the depth or cost limits): `errors`, or the envelope for a body that is not JSON.",
    ),
    "401": openApiRef("responses", "Unauthorized"),
    "405": graphqlOrEnvelope("A mutation sent with `GET`."),
    "406": openApiErrorResponse(
      "An `Accept` that names neither `application/graphql-response+json` nor `application/json`.",
      errorEnvelope(
        406,
        "Not acceptable: accept application/graphql-response+json or application/json",
      ),
    ),
  };
  return {
    tags: [{ name: "graphql", description: "The GraphQL API of the GraphQL models." }],
    paths: {
      [path]: {
        post: {
          operationId: "graphql",
          tags: ["graphql"],
          summary: "Run a GraphQL operation",
          requestBody: { required: true, ...jsonContent(GRAPHQL_REQUEST) },
          responses: {
            ...answers,
            "413": openApiErrorResponse(
              `A body over ${maximumBytes} bytes.`,
              errorEnvelope(413, `Request body is too large (maximum is ${maximumBytes} bytes)`),
            ),
            "415": openApiErrorResponse(
              "A body that is not `application/json`.",
              errorEnvelope(415, "Unsupported content type: send application/json"),
            ),
          },
        },
        get: {
          operationId: "graphqlQuery",
          tags: ["graphql"],
          summary: "Run a GraphQL query given in the query string",
          parameters: [
            { name: "query", in: "query", required: true, schema: { type: "string" } },
            {
              name: "variables",
              in: "query",
              description: "The variables as JSON.",
              schema: { type: "string" },
            },
            { name: "operationName", in: "query", schema: { type: "string" } },
          ],
          responses: answers,
        },
      },
    },
  };
}
