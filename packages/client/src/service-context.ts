import type { Fetch } from "./service-call.js";
import type { TokenHolder } from "./token-holder.js";
import type { WebAuthnCeremonies } from "./webauthn-ceremonies.js";

/** What the client's account calls share: the service, how to reach it, and the token holder. */
export interface ServiceContext {
  readonly baseUrl: string;
  /** Sends as it is: the ways in and the refresh, whose credentials are in the body. */
  readonly fetch: Fetch;
  /** Sends with the held bearer token, refreshed on a 401 (see `bearerFetch`). */
  readonly bearerFetch: Fetch;
  readonly tokens: TokenHolder;
  readonly webAuthn: WebAuthnCeremonies;
  /** Whether the ways in ask for a refresh token (`"refresh": true`). */
  readonly refresh: boolean;
}
