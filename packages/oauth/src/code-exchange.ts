import * as oauth from "oauth4webapi";
import { githubProfile } from "./github-profile.js";
import type { ClientAuthenticationMethod, OAuthProvider } from "./provider.js";
import { type ProviderHttp, providerRequestOptions } from "./provider-http.js";
import { type ProviderProfile, providerProfile } from "./provider-profile.js";

/** What the callback brings to the code exchange. */
export interface CodeExchange {
  /** The callback's query: `code`, `state` and, from providers that send it, `iss`. */
  readonly callbackParameters: URLSearchParams;
  /** The `redirect_uri` of the authorization request; the token endpoint checks they match. */
  readonly redirectUri: string;
  readonly codeVerifier: string;
}

/**
 * The client authentication the token endpoint takes. GitHub reads the secret from the body.
 * An OpenID Connect provider gets the body too (`client_secret_post`) whenever its metadata
 * lists it: HTTP Basic, as oauth4webapi sends it, percent-encodes the credentials first (RFC 6749
 * §2.3.1), so `my-app_id` arrives as `my%2Dapp%5Fid`, and some providers refuse that. Basic is
 * left for providers that do not list `client_secret_post` (it is the default of OpenID Connect
 * Discovery 1.0 when none is listed). A provider's own `clientAuthentication` overrides both.
 */
export function clientAuthenticationMethod(
  provider: OAuthProvider,
  server: oauth.AuthorizationServer,
): ClientAuthenticationMethod {
  if (provider.kind === "github") return "client_secret_post";
  if (provider.clientAuthentication) return provider.clientAuthentication;
  const listed = server.token_endpoint_auth_methods_supported ?? [];
  return listed.includes("client_secret_post") ? "client_secret_post" : "client_secret_basic";
}

/**
 * Exchanges the callback's code (with the PKCE verifier) and reads the profile: 2 requests for
 * an OpenID Connect provider (token, UserInfo), 3 for GitHub (token, `/user`, `/user/emails`).
 * The state must already be checked; this checks `iss` when the provider sends it (RFC 9207).
 * @throws whatever goes wrong with the provider (refusal, network, malformed answer): the caller
 * turns it into one alert.
 */
export async function fetchProviderProfile(
  provider: OAuthProvider,
  server: oauth.AuthorizationServer,
  exchange: CodeExchange,
  http: ProviderHttp,
): Promise<ProviderProfile> {
  const options = providerRequestOptions(provider, http);
  const client: oauth.Client = { client_id: provider.clientId };
  const parameters = oauth.validateAuthResponse(
    server,
    client,
    exchange.callbackParameters,
    oauth.skipStateCheck,
  );
  const response = await oauth.authorizationCodeGrantRequest(
    server,
    client,
    clientAuthenticationMethod(provider, server) === "client_secret_post"
      ? oauth.ClientSecretPost(provider.clientSecret)
      : oauth.ClientSecretBasic(provider.clientSecret),
    parameters,
    exchange.redirectUri,
    exchange.codeVerifier,
    options,
  );
  const openId = provider.kind === "openid";
  // The ID token comes straight from the token endpoint over TLS, so oauth4webapi checks its
  // claims (iss, aud, exp) but not its signature (OpenID Connect Core 1.0, §3.1.3.7).
  const tokens = await oauth.processAuthorizationCodeResponse(server, client, response, {
    requireIdToken: openId,
  });
  if (provider.kind === "github") return githubProfile(provider, tokens.access_token, options);

  const claims = oauth.getValidatedIdTokenClaims(tokens)!;
  if (!server.userinfo_endpoint) {
    return providerProfile(claims.sub, claims.email, claims.email_verified);
  }
  const answer = await oauth.userInfoRequest(server, client, tokens.access_token, options);
  // Refused unless UserInfo describes the same `sub` as the ID token.
  const userInfo = await oauth.processUserInfoResponse(server, client, claims.sub, answer);
  return providerProfile(userInfo.sub, userInfo.email, userInfo.email_verified);
}
