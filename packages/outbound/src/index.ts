export { type AddressClass, classifyAddress } from "./address-class.js";
export { type GuardedFetchOptions, guardedFetch } from "./guarded-fetch.js";
export {
  checkOutboundTarget,
  checkOutboundUrl,
  comparableHost,
  hostAllowed,
  type OutboundPolicy,
  type OutboundUrlRefusal,
  type OutboundUrlTarget,
  type ResolveHost,
  refusedAddress,
  URL_NOT_ALLOWED,
} from "./outbound-policy.js";
export {
  OUTBOUND_ANSWER_BYTES,
  OUTBOUND_TIMEOUT_MS,
  type OutboundFetch,
  type OutboundFetchLimits,
  type OutboundOutcome,
  OutboundRefusedError,
  type OutboundRequest,
} from "./outbound-request.js";
