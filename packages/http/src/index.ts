// The envelope's shape and escaping live in @tessera/core (fields needs them without http);
// re-exported so imports from @tessera/http keep working.
export { type ErrorEnvelope, errorEnvelope, escapeHtml } from "@tessera/core";
export { isAllowedOrigin, normalizeOrigin, parseAllowedOrigins } from "./allowed-origins.js";
export { authenticated } from "./authentication-middleware.js";
export {
  type BodyBytesFailure,
  type ChunkDemand,
  DEFAULT_MAXIMUM_BODY_BYTES,
  readBodyBytes,
  readBodyChunks,
} from "./body-bytes.js";
export { type BodyLimitOptions, bodyLimit } from "./body-limit-middleware.js";
export type {
  BodyFailure,
  BodyFailureReason,
  BodyReadOptions,
  BodyResult,
} from "./body-result.js";
export { type ClientIpSource, clientIp, rateLimitClientKey } from "./client-ip.js";
export { type CookieAttributes, expireCookie, parseCookies, serializeCookie } from "./cookies.js";
export { answerCorsPreflight, type CorsOptions, withCorsHeaders } from "./cors.js";
export {
  type CrossSiteOptions,
  type CrossSitePass,
  type CrossSiteRefusal,
  checkCrossSiteRequest,
  crossSiteRefusal,
  crossSiteRefusalPage,
} from "./cross-site.js";
export { type CrossSiteCheckOptions, crossSiteCheck } from "./cross-site-middleware.js";
export { newCspNonce } from "./csp-nonce.js";
export {
  badRequest,
  errorEnvelopeMessage,
  forbidden,
  type HttpErrorCode,
  type JsonErrorOptions,
  jsonError,
  notFound,
  retryAfter,
  tooManyRequests,
  unauthorized,
  validationFailed,
} from "./error-envelope.js";
export { filledPath } from "./filled-path.js";
export { FORM_BODY_FAILURE_PREFIX, readFormBody } from "./form-body.js";
export {
  createHostCheck,
  HOST_REFUSAL_MESSAGE,
  normalizeHost,
  parseAllowedHosts,
} from "./host-check.js";
export { htmlPage, NO_REFERRER, NO_STORE, seeOther } from "./html-responses.js";
export { type HttpMessageId, httpMessages } from "./http-messages.js";
export { isHttpsRequest } from "./https-request.js";
export { IMPERSONATION_STOP_PATH, impersonationBanner } from "./impersonation-banner.js";
export { isIpAddress } from "./ip-address.js";
export {
  JSON_BODY_FAILURE_PREFIX,
  type JsonBodyOptions,
  type JsonShape,
  type JsonValueOf,
  readJsonBody,
} from "./json-body.js";
export {
  AFTER_MESSAGE,
  DEFAULT_LIST_LIMIT,
  LIMIT_MESSAGE,
  type ListPage,
  loadListPage,
  MAXIMUM_LIST_LIMIT,
  OFFSET_AND_AFTER_MESSAGE,
  OFFSET_MESSAGE,
  readListPage,
} from "./list-page.js";
export {
  type LocaleNegotiationOptions,
  localeChooser,
  localeNegotiation,
  negotiateLocale,
  withLanguageHeaders,
} from "./locale-negotiation.js";
export { type MediaType, parseMediaType } from "./media-type.js";
export {
  jsonContent,
  mergeOpenApiParts,
  OPENAPI_TIMESTAMP,
  type OpenApiDocumentShape,
  type OpenApiObject,
  type OpenApiPart,
  onlyMountedOperations,
  openApiErrorPart,
  openApiErrorResponse,
  openApiPath,
  openApiRef,
} from "./openapi-part.js";
export {
  DEFAULT_PAGE_POLICY,
  NONCE_SOURCE,
  PAGE_HEADERS,
  type PageHeaderOptions,
  type PolicyDirectives,
  pagePolicy,
  withPageHeaders,
} from "./page-headers.js";
export {
  type Layout,
  type PageContext,
  type PageFlash,
  type PageLink,
  type PageMenu,
  plainLayout,
} from "./page-layout.js";
export { pathId } from "./path-id.js";
export {
  type AttemptCounter,
  attemptRateLimit,
  type RateLimitOptions,
  rateLimit,
} from "./rate-limit-middleware.js";
export { editResponseHeaders } from "./response-headers.js";
export type {
  Authenticate,
  Authentication,
  PageRouteContext,
  Route,
  RouteContext,
  RouteHandler,
  RouteMethod,
} from "./route.js";
export {
  createRouteMatcher,
  orderRoutes,
  type RouteMatch,
  routeRequests,
} from "./route-matching.js";
export {
  composeMiddleware,
  type PassThroughMiddleware,
  type RouteInfo,
  type RouteMiddleware,
  type RouteRefusal,
  withMiddleware,
} from "./route-middleware.js";
export { MAXIMUM_LOCAL_PATH_LENGTH, safeLocalPath } from "./safe-local-path.js";
export {
  type AnswerInit,
  isSecured,
  jsonAnswer,
  markSecured,
  securedAnswer,
  securedHeaders,
} from "./secured-responses.js";
export {
  routeSecurityHeaders,
  SECURITY_HEADERS,
  STRICT_TRANSPORT_SECURITY,
  withSecurityHeaders,
} from "./security-headers.js";
