export { type ClientAddressOptions, clientAddress } from "./client-address.js";
export { type HostCheckOptions, hostCheck } from "./host-check.js";
export { type MountedRouteContext, mount } from "./mount.js";
export {
  crossSiteProtection,
  cspNonce,
  type SecurityHeadersOptions,
  securityHeaders,
} from "./security.js";
export { StaticPathRouter } from "./static-path-router.js";
export type { TesseraEnv, TesseraVariables } from "./variables.js";
