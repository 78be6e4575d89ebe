export {
  type CompiledOperation,
  type CompileQuery,
  compiledExecute,
} from "./compiled-execution.js";
export {
  DEFAULT_DOCUMENT_CACHE_CHARACTERS,
  type DocumentCache,
  type DocumentCacheOptions,
  documentCache,
} from "./document-cache.js";
export {
  DEFAULT_MAXIMUM_NESTING,
  DEFAULT_MAXIMUM_QUERY_BYTES,
  DEFAULT_MAXIMUM_TOKENS,
  type DocumentLimits,
  parseWithinLimits,
} from "./document-limits.js";
export { type GraphqlRoutesOptions, graphqlRoutes, INTERNAL_ERROR_MESSAGE } from "./graphql-api.js";
export { DEFAULT_MAXIMUM_GRAPHQL_BODY_BYTES } from "./graphql-body-limit.js";
export {
  type GraphqlColumn,
  type GraphqlModel,
  type GraphqlNames,
  type GraphqlScalarKind,
  graphqlModel,
} from "./graphql-model.js";
export { graphqlOpenApi } from "./graphql-openapi.js";
export type {
  OrganizationOwnerRequest,
  OrganizationOwnerResolver,
  OrganizationOwnerResult,
} from "./organization-owner.js";
export {
  DEFAULT_MAXIMUM_DEPTH,
  DEFAULT_MAXIMUM_FIELDS,
  type QueryLimits,
  queryLimitRules,
} from "./query-limits.js";
export { type GraphqlRecordErrorCode, RECORD_ERROR_STATUS } from "./record-errors.js";
export {
  type GraphqlRecord,
  type ListArguments,
  type RecordResolvers,
  recordResolvers,
} from "./record-resolvers.js";
export { type RecordSchemaOptions, recordSchema } from "./record-schema.js";
export { type RecordTypes, recordTypes } from "./record-types.js";
export { DESCRIBED_VALUE_LIMITS, undescribableVariables } from "./variable-refusals.js";
