// oidc-provider ships no types and @types/oidc-provider is not installed: the little of its
// API these tests use, as its documentation describes it.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    redirect_uris: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>>;
  }

  export interface Configuration {
    clients?: ClientMetadata[];
    claims?: Record<string, string[]>;
    findAccount?: (context: unknown, id: string) => Promise<Account | undefined>;
    features?: Record<string, { enabled: boolean }>;
    ttl?: Record<string, number>;
    cookies?: { keys?: string[] };
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
