// The Node half of `@tessera/outbound` (`@tessera/outbound/node`): the guarded fetch that checks
// addresses at connect time, and DNS resolution for registration checks.
export { guardedLookup, type NodeLookup } from "./node/guarded-lookup.js";
export { type NodeGuardedFetchOptions, nodeGuardedFetch } from "./node/node-guarded-fetch.js";
export { nodeResolveHost } from "./node/node-resolve-host.js";
