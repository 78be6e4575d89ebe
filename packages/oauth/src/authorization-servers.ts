import * as oauth from "oauth4webapi";
import type { OAuthProvider } from "./provider.js";
import { type ProviderHttp, providerRequestOptions } from "./provider-http.js";

/** Finds a provider's endpoints; rejects when its discovery document cannot be had. */
export type AuthorizationServerLookup = (
  provider: OAuthProvider,
) => Promise<oauth.AuthorizationServer>;

/**
 * Looks up providers' endpoints: GitHub's are fixed; an OpenID Connect issuer's come from its
 * discovery document, fetched once per issuer and kept for the life of the lookup (a sign-in
 * then costs no extra request). A failed discovery is forgotten, so the next sign-in retries.
 */
export function authorizationServerLookup(http: ProviderHttp): AuthorizationServerLookup {
  const discovered = new Map<string, Promise<oauth.AuthorizationServer>>();

  return (provider) => {
    if (provider.kind === "github") {
      return Promise.resolve({
        issuer: provider.serverUrl,
        authorization_endpoint: provider.authorizationEndpoint,
        token_endpoint: provider.tokenEndpoint,
      });
    }
    let server = discovered.get(provider.issuer);
    if (!server) {
      server = discover(provider.issuer, providerRequestOptions(provider, http));
      discovered.set(provider.issuer, server);
      server.catch(() => discovered.delete(provider.issuer));
    }
    return server;
  };
}

async function discover(
  issuer: string,
  options: oauth.DiscoveryRequestOptions,
): Promise<oauth.AuthorizationServer> {
  const issuerUrl = new URL(issuer);
  const response = await oauth.discoveryRequest(issuerUrl, options);
  // Checks that the document names this very issuer (OpenID Connect Discovery 1.0, §4.3).
  const server = await oauth.processDiscoveryResponse(issuerUrl, response);
  if (!server.authorization_endpoint || !server.token_endpoint) {
    throw new Error(`the discovery document of ${issuer} lacks an authorization or token endpoint`);
  }
  return server;
}
