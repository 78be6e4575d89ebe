/**
 * A provider's name: the path segment of `/auth/<name>`, kept in the session during the flow,
 * so it fits both (lower-case letters, digits and `_`, at most 32 characters).
 */
export const PROVIDER_NAME = /^[a-z][a-z0-9_]{0,31}$/;

/** What every provider has, whatever the protocol. */
interface ProviderBase {
  /** Matches {@link PROVIDER_NAME}: `github` serves `/auth/github`. */
  readonly name: string;
  /** The name people know, for the button and the messages: `GitHub`. */
  readonly label: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The scopes asked for, space-separated. */
  readonly scope: string;
}

/** How the client id and secret reach a token endpoint: in the form body, or by HTTP Basic. */
export type ClientAuthenticationMethod = "client_secret_post" | "client_secret_basic";

/**
 * An OpenID Connect provider, configured from its issuer's discovery document (fetched at the
 * first sign-in, then cached). The profile is its UserInfo answer: `sub`, `email`,
 * `email_verified`.
 */
export interface OpenIdProvider extends ProviderBase {
  readonly kind: "openid";
  /** The issuer identifier: `https://accounts.google.com`. */
  readonly issuer: string;
  /**
   * Fixes how the client authenticates at the token endpoint. Absent: `client_secret_post`
   * whenever the discovery document lists it, else HTTP Basic.
   */
  readonly clientAuthentication?: ClientAuthenticationMethod | undefined;
}

/**
 * GitHub, which speaks OAuth 2.0 but not OpenID Connect: fixed endpoints, and the profile from
 * its REST API (`GET /user` for the id, `GET /user/emails` for the primary verified address).
 */
export interface GitHubProvider extends ProviderBase {
  readonly kind: "github";
  /** `https://github.com`, or a GitHub Enterprise Server's address. */
  readonly serverUrl: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  /** The REST API's base: `https://api.github.com`, or `<server>/api/v3` on Enterprise Server. */
  readonly apiUrl: string;
}

/** A configured provider; build one with the functions below or `oauthProvidersFromEnv`. */
export type OAuthProvider = OpenIdProvider | GitHubProvider;

/** The client registration every provider function takes. */
export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Replaces the default scopes. */
  readonly scope?: string | undefined;
}

/**
 * True for `http:` addresses on the loopback interface (127.0.0.0/8, ::1, localhost): the only
 * ones allowed without TLS, so a provider can run beside the app in development and tests.
 */
export function isLoopbackHttp(url: URL): boolean {
  if (url.protocol !== "http:") return false;
  return (
    url.hostname === "localhost" ||
    url.hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname)
  );
}

/**
 * Checks an address a provider is reached at: `https:`, or `http:` on loopback only.
 * @throws {TypeError} otherwise: a configuration error, found at startup.
 */
function providerUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`${what} ${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== "https:" && !isLoopbackHttp(url)) {
    throw new TypeError(`${what} ${text} must use https (plain http only on 127.0.0.1 or ::1)`);
  }
  return url;
}

function checkBase(base: ProviderBase): void {
  if (!PROVIDER_NAME.test(base.name)) {
    throw new TypeError(`invalid provider name ${JSON.stringify(base.name)}`);
  }
  if (base.clientId === "") throw new TypeError(`the ${base.name} client id is empty`);
  if (base.clientSecret === "") throw new TypeError(`the ${base.name} client secret is empty`);
}

/**
 * Any OpenID Connect provider, by issuer. Default scope `openid email`; default label: the
 * name with a capital (`okta` → `Okta`).
 * @throws {TypeError} for an invalid name, an empty credential, or an issuer that is neither
 * `https:` nor loopback `http:`.
 */
export function openIdProvider(
  options: ClientCredentials & {
    readonly name: string;
    readonly issuer: string;
    readonly label?: string | undefined;
    readonly clientAuthentication?: ClientAuthenticationMethod | undefined;
  },
): OpenIdProvider {
  const provider: OpenIdProvider = {
    kind: "openid",
    name: options.name,
    label: options.label ?? options.name.charAt(0).toUpperCase() + options.name.slice(1),
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    scope: options.scope ?? "openid email",
    issuer: options.issuer,
    ...(options.clientAuthentication ? { clientAuthentication: options.clientAuthentication } : {}),
  };
  checkBase(provider);
  providerUrl(provider.issuer, `the ${provider.name} issuer`);
  if (!provider.scope.split(" ").includes("openid")) {
    throw new TypeError(`the ${provider.name} scope must include openid`);
  }
  return provider;
}

/**
 * The Google preset: OpenID Connect from `https://accounts.google.com`, scope `openid email`,
 * credentials in the token request's body (`client_secret_post`, which Google documents and
 * lists), never HTTP Basic, whose percent-encoded client id Google has been reported to refuse.
 */
export function googleProvider(options: ClientCredentials): OpenIdProvider {
  return openIdProvider({
    ...options,
    name: "google",
    label: "Google",
    issuer: "https://accounts.google.com",
    clientAuthentication: "client_secret_post",
  });
}

/**
 * The GitHub preset, scope `user:email` (which `GET /user/emails` needs). `serverUrl` points it
 * at a GitHub Enterprise Server instead of github.com.
 * @throws {TypeError} for an empty credential, or a `serverUrl` neither `https:` nor loopback
 * `http:`.
 */
export function githubProvider(
  options: ClientCredentials & { readonly serverUrl?: string | undefined },
): GitHubProvider {
  const server = providerUrl(options.serverUrl ?? "https://github.com", "the GitHub server URL");
  const origin = server.origin;
  const provider: GitHubProvider = {
    kind: "github",
    name: "github",
    label: "GitHub",
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    scope: options.scope ?? "user:email",
    serverUrl: origin,
    authorizationEndpoint: `${origin}/login/oauth/authorize`,
    tokenEndpoint: `${origin}/login/oauth/access_token`,
    apiUrl: origin === "https://github.com" ? "https://api.github.com" : `${origin}/api/v3`,
  };
  checkBase(provider);
  return provider;
}
