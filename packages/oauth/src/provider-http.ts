import * as oauth from "oauth4webapi";
import { isLoopbackHttp, type OAuthProvider } from "./provider.js";

/** A `fetch`: what the app sends provider requests through (`globalThis.fetch` by default). */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

/** How the app talks to providers: the `fetch` to use and how long one request may take. */
export interface ProviderHttp {
  readonly fetch: FetchFunction;
  readonly timeoutMs: number;
}

/** The oauth4webapi options of every request to one provider (fit for every request kind). */
export interface ProviderRequestOptions {
  // Takes any object: oauth4webapi types its fetch options per request kind, and with
  // exactOptionalPropertyTypes none of them is a RequestInit, though each is one at run time.
  readonly [oauth.customFetch]: (url: string, init: object) => Promise<Response>;
  readonly signal: () => AbortSignal;
  readonly [oauth.allowInsecureRequests]?: boolean;
}

/** The address that decides whether a provider may be reached over plain HTTP. */
function providerAddress(provider: OAuthProvider): URL {
  return new URL(provider.kind === "openid" ? provider.issuer : provider.serverUrl);
}

/**
 * Request options for one provider. oauth4webapi refuses `http:` unless told otherwise; it is
 * told so only for a provider whose configured address is loopback `http:` (a provider running
 * beside the app in development or tests), never for one reached over the network.
 */
export function providerRequestOptions(
  provider: OAuthProvider,
  http: ProviderHttp,
): ProviderRequestOptions {
  return {
    [oauth.customFetch]: (url, init) => http.fetch(url, init as RequestInit),
    signal: () => AbortSignal.timeout(http.timeoutMs),
    ...(isLoopbackHttp(providerAddress(provider)) ? { [oauth.allowInsecureRequests]: true } : {}),
  };
}
