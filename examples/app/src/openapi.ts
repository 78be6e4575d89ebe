import { accountOpenApi } from "@tessera/accounts";
import { graphqlOpenApi } from "@tessera/graphql";
import {
  jsonContent,
  mergeOpenApiParts,
  type OpenApiPart,
  onlyMountedOperations,
} from "@tessera/http";
import { jobOpenApi } from "@tessera/jobs";
import { organizationOpenApi } from "@tessera/organizations/routes";
import { outboundOpenApi } from "@tessera/outbound/routes";
import { openApiDocument } from "@tessera/records";
import { operatorColumns } from "./accounts.js";
import { appEventTypes, recordModels } from "./records.js";
import { renderJob } from "./render-jobs.js";

// The record routes' part, from the same models the routes are mounted from.
const recordDocument = openApiDocument({
  models: recordModels,
  info: {
    title: "Tessera example app: record API",
    version: "0.1.0",
    description:
      'The JSON record routes of the example app. Every record belongs to the bearer\'s user; another user\'s record is a 404 like a missing one. Errors use the envelope `{"error":{"message","status","fields"?}}`.',
  },
  bearerDescription:
    "`Authorization: Bearer <token>`: a JWT from `POST /api/auth/token` (3600 seconds) or an API key from `POST /api/auth/keys`.",
});

const outboundDocument = outboundOpenApi({ eventTypes: appEventTypes });
const organizationDocument = organizationOpenApi();
// The same endpoint routes of an organization (service.ts mounts them under /api/orgs/:slug),
// with what every route of an organization has: its slug, the 403 naming the permission
// (`webhooks:manage`) and the 404 of a non-member.
const organizationEndpointsDocument = outboundOpenApi({
  eventTypes: appEventTypes,
  basePath: "/api/orgs/:slug",
  ...organizationDocument.organizationScoped,
  operationIdPrefix: "organization",
});

/** The app's own routes: the health check and this document. */
const appPart: OpenApiPart = {
  tags: [{ name: "service", description: "The service itself." }],
  paths: {
    "/api/health": {
      get: {
        operationId: "health",
        tags: ["service"],
        summary: "Whether the service answers",
        security: [],
        responses: {
          "200": {
            description: "It does.",
            ...jsonContent({
              type: "object",
              properties: { status: { const: "ok" } },
              required: ["status"],
              additionalProperties: false,
            }),
          },
        },
      },
    },
    "/api/openapi.json": {
      get: {
        operationId: "openApiDocument",
        tags: ["service"],
        summary: "This document",
        description: "The OpenAPI 3.1 document of every JSON route the app mounts.",
        security: [],
        responses: {
          "200": {
            description: "The document.",
            ...jsonContent({ type: "object", required: ["openapi", "paths"] }),
          },
        },
      },
    },
  },
};

/**
 * The organization endpoint routes' part: its paths under `/api/orgs/{slug}`, without what the
 * user's part already gives (its components, and `GET /api/webhook_event_types`, which has no
 * owner).
 */
const organizationEndpointsPart: OpenApiPart = {
  tags: [],
  paths: Object.fromEntries(
    Object.entries(organizationEndpointsDocument.paths).filter(([template]) =>
      template.startsWith("/api/orgs/"),
    ),
  ),
};

/** Every package's part, merged into one document. */
const wholeDocument = mergeOpenApiParts(
  {
    ...recordDocument,
    info: {
      title: "Tessera example app",
      version: "0.1.0",
      description:
        'Every JSON route of the example app. Records belong to the bearer\'s user (or organization); another user\'s record is a 404 like a missing one. Errors use the envelope `{"error":{"code","message","status","fields"?}}`; `code` is the word for programs to act on.',
    },
    webhooks: outboundDocument.webhooks,
  },
  [
    appPart,
    ...accountOpenApi({ operatorColumns }),
    jobOpenApi(renderJob),
    graphqlOpenApi(),
    {
      tags: [outboundDocument.tag],
      paths: outboundDocument.paths,
      schemas: outboundDocument.schemas,
    },
    {
      tags: [organizationDocument.tag],
      paths: organizationDocument.paths,
      schemas: organizationDocument.schemas,
      responses: organizationDocument.responses,
    },
    organizationEndpointsPart,
  ],
);

/**
 * The OpenAPI 3.1 document of the app's JSON routes, served at `GET /api/openapi.json`: with
 * `mounted` (the app's route table) only the operations among them, so a route its settings
 * leave out (the mail routes without a mailer) is left out of the document too.
 */
export function appApiDocument(
  mounted?: readonly { readonly method: string; readonly path: string }[],
): typeof wholeDocument {
  return mounted ? onlyMountedOperations(wholeDocument, mounted) : wholeDocument;
}
