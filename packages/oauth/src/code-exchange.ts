import * as oauth from "oauth4webapi";
import { githubProfile } from "./github-profile.js";
import type { OAuthProvider } from "./provider.js";
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
 * The client authentication the token endpoint takes: GitHub reads the secret from the body;
 * an OpenID Connect provider gets HTTP Basic unless its metadata lists only `client_secret_post`
 * (Basic is the default of OpenID Connect Discovery 1.0 when none is listed).
 */
function clientAuthentication(
  provider: OAuthProvider,
  server: oauth.AuthorizationServer,
): oauth.ClientAuth {
  const methods = server.token_endpoint_auth_methods_supported;
  const post =
    provider.kind === "github" ||
    (methods !== undefined &&
      !methods.includes("client_secret_basic") &&
      methods.includes("client_secret_post"));
  return post
    ? oauth.ClientSecretPost(provider.clientSecret)
    : oauth.ClientSecretBasic(provider.clientSecret);
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
    clientAuthentication(provider, server),
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
