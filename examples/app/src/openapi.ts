import { organizationOpenApi } from "@tessera/organizations/routes";
import { outboundOpenApi } from "@tessera/outbound/routes";
import { openApiDocument } from "@tessera/records";
import { appEventTypes, recordModels } from "./records.js";

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

/**
 * The OpenAPI 3.1 document of the app's JSON record, webhook endpoint and organization routes, served at
 * `GET /api/openapi.json`: built once, when the module loads, which the route does on its first
 * request.
 */
export const recordApiDocument = {
  ...recordDocument,
  tags: [...recordDocument.tags, outboundDocument.tag, organizationDocument.tag],
  paths: {
    ...recordDocument.paths,
    ...outboundDocument.paths,
    ...organizationDocument.paths,
    ...organizationEndpointsDocument.paths,
  },
  webhooks: outboundDocument.webhooks,
  components: {
    ...recordDocument.components,
    schemas: {
      ...(recordDocument.components.schemas as object),
      ...outboundDocument.schemas,
      ...organizationDocument.schemas,
    },
    responses: {
      ...(recordDocument.components.responses as object),
      ...organizationDocument.responses,
    },
  },
};
