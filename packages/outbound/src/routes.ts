// The HTTP half of `@tessera/outbound` (`@tessera/outbound/routes`): the JSON routes, the page
// and the OpenAPI description of an owner's webhook endpoints, on @tessera/http and
// @tessera/session (optional peers: only this entry needs them).
export {
  type EndpointOwner,
  type EndpointOwnerResolver,
  userEndpointOwner,
} from "./routes/endpoint-owner.js";
export { type EventTypeDescription, eventTypeNames } from "./routes/event-type-catalog.js";
export { type OutboundMessageId, outboundMessages } from "./routes/outbound-messages.js";
export { type OutboundOpenApiOptions, outboundOpenApi } from "./routes/outbound-openapi.js";
export {
  type OutboundPagesOptions,
  outboundPages,
  WEBHOOKS_PAGE_PATH,
} from "./routes/outbound-pages.js";
export {
  ENDPOINT_LIMIT_REACHED,
  MAXIMUM_ENDPOINT_BODY_BYTES,
  type OutboundRoutesOptions,
  type OwnerContext,
  outboundRoutes,
  WEBHOOK_ENDPOINT_RATE_LIMIT,
  WEBHOOK_REPLAY_RATE_LIMIT,
  webhookEventTypesRoute,
} from "./routes/outbound-routes.js";
export { exampleOfSchema } from "./routes/schema-example.js";
