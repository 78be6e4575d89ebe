import { describe, expect, it } from "vitest";
import {
  clientAuthenticationMethod,
  githubProvider,
  googleProvider,
  isLoopbackHttp,
  oauthMessages,
  oauthProvidersFromEnv,
  openIdProvider,
  renderProviderButtons,
} from "../src/index.js";

const credentials = { clientId: "id", clientSecret: "secret" };

describe("oauthProvidersFromEnv", () => {
  it("reads the presets and generic OpenID Connect providers, sorted by name", () => {
    const providers = oauthProvidersFromEnv({
      OKTA_CLIENT_ID: "okta-id",
      OKTA_CLIENT_SECRET: "okta-secret",
      OKTA_ISSUER: "https://example.okta.com",
      GOOGLE_CLIENT_ID: "google-id",
      GOOGLE_CLIENT_SECRET: "google-secret",
      GITHUB_CLIENT_ID: "github-id",
      GITHUB_CLIENT_SECRET: "github-secret",
      AZURE_AD_CLIENT_ID: "azure-id",
      AZURE_AD_CLIENT_SECRET: "azure-secret",
      AZURE_AD_ISSUER: "https://login.microsoftonline.com/tenant/v2.0",
      AZURE_AD_LABEL: "Microsoft",
    });
    expect(providers).toEqual([
      {
        kind: "openid",
        name: "azure_ad",
        label: "Microsoft",
        clientId: "azure-id",
        clientSecret: "azure-secret",
        scope: "openid email",
        issuer: "https://login.microsoftonline.com/tenant/v2.0",
      },
      {
        kind: "github",
        name: "github",
        label: "GitHub",
        clientId: "github-id",
        clientSecret: "github-secret",
        scope: "user:email",
        serverUrl: "https://github.com",
        authorizationEndpoint: "https://github.com/login/oauth/authorize",
        tokenEndpoint: "https://github.com/login/oauth/access_token",
        apiUrl: "https://api.github.com",
      },
      {
        kind: "openid",
        name: "google",
        label: "Google",
        clientId: "google-id",
        clientSecret: "google-secret",
        scope: "openid email",
        issuer: "https://accounts.google.com",
        clientAuthentication: "client_secret_post",
      },
      {
        kind: "openid",
        name: "okta",
        label: "Okta",
        clientId: "okta-id",
        clientSecret: "okta-secret",
        scope: "openid email",
        issuer: "https://example.okta.com",
      },
    ]);
  });

  it("configures nothing from an empty environment or from unrelated client ids", () => {
    expect(oauthProvidersFromEnv({})).toEqual([]);
    expect(
      oauthProvidersFromEnv({
        STRIPE_CLIENT_ID: "ca_123",
        STRIPE_CLIENT_SECRET: "sk",
        GITHUB_CLIENT_ID: "",
        lowercase_CLIENT_ID: "x",
      }),
    ).toEqual([]);
  });

  it("refuses a half-configured provider at startup, naming the missing variable", () => {
    expect(() => oauthProvidersFromEnv({ GITHUB_CLIENT_ID: "id" })).toThrow(
      "GITHUB_CLIENT_SECRET is not set, but GITHUB_CLIENT_ID is",
    );
    expect(() =>
      oauthProvidersFromEnv({
        IDP_CLIENT_ID: "id",
        IDP_CLIENT_SECRET: "secret",
        IDP_ISSUER: "http://idp.example.com",
      }),
    ).toThrow("the idp issuer http://idp.example.com must use https");
    const longName = "A".repeat(33);
    expect(() =>
      oauthProvidersFromEnv({
        [`${longName}_CLIENT_ID`]: "id",
        [`${longName}_CLIENT_SECRET`]: "secret",
        [`${longName}_ISSUER`]: "https://idp.example.com",
      }),
    ).toThrow(`${longName} is too long for a provider name`);
  });
});

describe("provider functions", () => {
  it("accept plain http only on loopback, so a provider can run beside the app in tests", () => {
    expect(isLoopbackHttp(new URL("http://127.0.0.1:4000"))).toBe(true);
    expect(isLoopbackHttp(new URL("http://127.8.9.10"))).toBe(true);
    expect(isLoopbackHttp(new URL("http://[::1]:4000"))).toBe(true);
    expect(isLoopbackHttp(new URL("http://localhost:4000"))).toBe(true);
    expect(isLoopbackHttp(new URL("https://127.0.0.1"))).toBe(false);
    expect(isLoopbackHttp(new URL("http://127.0.0.1.evil.example"))).toBe(false);
    expect(isLoopbackHttp(new URL("http://10.0.0.1"))).toBe(false);
    const local = { ...credentials, name: "local", issuer: "http://127.0.0.1:4000" };
    expect(openIdProvider(local).issuer).toBe("http://127.0.0.1:4000");
    expect(() => openIdProvider({ ...local, issuer: "http://10.0.0.1:4000" })).toThrow(TypeError);
    expect(() => githubProvider({ ...credentials, serverUrl: "http://github.example" })).toThrow(
      TypeError,
    );
  });

  it("point GitHub Enterprise Server at its own API path", () => {
    const enterprise = githubProvider({ ...credentials, serverUrl: "https://git.example.com/" });
    expect([enterprise.authorizationEndpoint, enterprise.tokenEndpoint, enterprise.apiUrl]).toEqual(
      [
        "https://git.example.com/login/oauth/authorize",
        "https://git.example.com/login/oauth/access_token",
        "https://git.example.com/api/v3",
      ],
    );
  });

  it("refuse what cannot work: bad names, empty credentials, scopes without openid", () => {
    const base = { ...credentials, issuer: "https://idp.example.com" };
    expect(() => openIdProvider({ ...base, name: "My IdP" })).toThrow("invalid provider name");
    expect(() => openIdProvider({ ...base, name: "idp", clientId: "" })).toThrow("client id");
    expect(() => googleProvider({ clientId: "id", clientSecret: "" })).toThrow("client secret");
    expect(() => openIdProvider({ ...base, name: "idp", scope: "email" })).toThrow("openid");
    expect(() => openIdProvider({ ...base, name: "idp", issuer: "not a url" })).toThrow(
      "is not a URL",
    );
  });
});

describe("clientAuthenticationMethod", () => {
  const server = (methods?: string[]) => ({
    issuer: "https://idp.example.com",
    ...(methods ? { token_endpoint_auth_methods_supported: methods } : {}),
  });
  const idp = openIdProvider({ ...credentials, name: "idp", issuer: "https://idp.example.com" });

  it("sends the credentials in the body whenever the provider lists client_secret_post", () => {
    expect(
      clientAuthenticationMethod(idp, server(["client_secret_basic", "client_secret_post"])),
    ).toBe("client_secret_post");
    expect(clientAuthenticationMethod(idp, server(["client_secret_post"]))).toBe(
      "client_secret_post",
    );
  });

  it("uses HTTP Basic when the provider does not list it, or lists nothing (the default)", () => {
    expect(clientAuthenticationMethod(idp, server(["client_secret_basic"]))).toBe(
      "client_secret_basic",
    );
    expect(clientAuthenticationMethod(idp, server())).toBe("client_secret_basic");
  });

  it("sends the body to GitHub and Google whatever the metadata says, as their documentation asks", () => {
    const google = googleProvider({ clientId: "id", clientSecret: "secret" });
    const github = githubProvider({ clientId: "id", clientSecret: "secret" });
    expect(clientAuthenticationMethod(google, server(["client_secret_basic"]))).toBe(
      "client_secret_post",
    );
    expect(clientAuthenticationMethod(github, server())).toBe("client_secret_post");
  });

  it("lets a provider fix its method", () => {
    const basicOnly = openIdProvider({
      ...credentials,
      name: "legacy",
      issuer: "https://idp.example.com",
      clientAuthentication: "client_secret_basic",
    });
    expect(clientAuthenticationMethod(basicOnly, server(["client_secret_post"]))).toBe(
      "client_secret_basic",
    );
  });
});

describe("oauthMessages in English", () => {
  it("are the alerts the callback wrote before the catalog, exactly", () => {
    expect([
      oauthMessages.english["oauth.state_invalid"],
      oauthMessages.english["oauth.password_removed"],
    ]).toEqual([
      "That sign-in attempt is invalid or has expired. Please try again.",
      "Your email address is now confirmed. The password set before it was confirmed no longer works: use “Forgot your password?” to choose a new one.",
    ]);
    expect(oauthMessages.text(undefined, "oauth.cancelled", { provider: "GitHub" })).toBe(
      "Signing in with GitHub was cancelled.",
    );
    expect(oauthMessages.text(undefined, "oauth.provider_error", { provider: "GitHub" })).toBe(
      "GitHub could not sign you in. Please try again.",
    );
  });
});

describe("renderProviderButtons", () => {
  it("renders one POST form per provider, escaping the label", () => {
    const html = renderProviderButtons([
      githubProvider(credentials),
      openIdProvider({
        ...credentials,
        name: "corp",
        label: `Corp <"SSO">`,
        issuer: "https://sso.example.com",
      }),
    ]);
    expect(html).toBe(
      [
        `<form method="post" action="/auth/github"><button type="submit">Continue with GitHub</button></form>`,
        `<form method="post" action="/auth/corp"><button type="submit">Continue with Corp &lt;&quot;SSO&quot;&gt;</button></form>`,
      ].join("\n"),
    );
  });

  it("writes the button in the locale given", () => {
    const pirate = { tag: "x-pirate", catalog: { "oauth.continue_with": "Sail with {provider}" } };
    expect(renderProviderButtons([githubProvider(credentials)], pirate)).toBe(
      `<form method="post" action="/auth/github"><button type="submit">Sail with GitHub</button></form>`,
    );
  });

  it("renders nothing without providers", () => {
    expect(renderProviderButtons([])).toBe("");
  });
});
