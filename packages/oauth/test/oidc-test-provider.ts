import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** An account at the test provider: what its UserInfo endpoint says about the person. */
export interface TestAccount {
  email?: string;
  email_verified?: boolean;
}

/** A running OpenID Connect provider on 127.0.0.1 with one registered client. */
export interface TestOidcProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The provider's accounts by id (the `sub`); change them between sign-ins at will. */
  readonly accounts: Map<string, TestAccount>;
  close(): Promise<void>;
}

/**
 * Starts a real oidc-provider (the certified OpenID Connect implementation) on a free port of
 * 127.0.0.1, with its development login and consent pages, the `email` scope, and a
 * confidential client for `redirectUris` (code flow, PKCE) whose id has a `-` and a `_`, which
 * HTTP Basic would send percent-encoded. The client is registered for `client_secret_post`,
 * so the provider refuses its secret in an `Authorization` header; its discovery document lists
 * both methods, as Google's does.
 */
export async function startOidcProvider(redirectUris: string[]): Promise<TestOidcProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "tessera-app_web-client";
  const clientSecret = "a-client-secret-known-only-to-the-app-and-the-provider";
  const accounts = new Map<string, TestAccount>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    async findAccount(_context, id) {
      if (!accounts.has(id)) return undefined;
      return {
        accountId: id,
        // Read at every request, so a test can change the account between sign-ins.
        claims: async () => ({ sub: id, ...accounts.get(id) }),
      };
    },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["a-cookie-signing-key-for-the-test-provider-only"] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
      Grant: 600,
    },
  });
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
