export type { AuthorizationServerLookup } from "./authorization-servers.js";
export { type CodeExchange, clientAuthenticationMethod } from "./code-exchange.js";
export type { Identity, IdentityStore, NewIdentity } from "./identity-store.js";
export { MemoryIdentityStore } from "./memory-identity-store.js";
export {
  type OAuthMessageId,
  oauthMessages,
} from "./oauth-messages.js";
export {
  DEFAULT_PROVIDER_TIMEOUT_MS,
  OAUTH_SESSION_VALUES,
  type OAuthRoutesOptions,
  oauthRoutes,
} from "./oauth-routes.js";
export {
  type OAuthUser,
  type OAuthUserDependencies,
  type OAuthUserOutcome,
  type OAuthUserRefusal,
  resolveOAuthUser,
} from "./oauth-user.js";
export {
  type ClientAuthenticationMethod,
  type ClientCredentials,
  type GitHubProvider,
  githubProvider,
  googleProvider,
  isLoopbackHttp,
  type OAuthProvider,
  type OpenIdProvider,
  openIdProvider,
  PROVIDER_NAME,
} from "./provider.js";
export { renderProviderButtons } from "./provider-buttons.js";
export { type Environment, oauthProvidersFromEnv } from "./provider-env.js";
export type { FetchFunction, ProviderHttp } from "./provider-http.js";
export type { ProviderProfile } from "./provider-profile.js";
