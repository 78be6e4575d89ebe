import createClient, { type Client } from "openapi-fetch";
import type { paths as AccountApiPaths } from "./account-api.js";
import { ACCOUNT_ROUTES } from "./account-routes.js";
import { bearerFetch } from "./bearer-fetch.js";
import { type RegisteredPasskey, registerPasskey, signInWithPasskey } from "./passkey-calls.js";
import { callService, type Fetch } from "./service-call.js";
import type { ServiceContext } from "./service-context.js";
import { type SignInOutcome, signInOutcome } from "./sign-in-outcome.js";
import { TesseraError } from "./tessera-error.js";
import { memoryTokenHolder, type TokenHolder } from "./token-holder.js";
import { tokenRefresher } from "./token-refresh.js";
import { browserWebAuthn, type WebAuthnCeremonies } from "./webauthn-ceremonies.js";

/**
 * The `paths` of the built-in account routes (sign-up, tokens, second factors, passkeys, API
 * keys, devices, activity, admin), as openapi-typescript generates them from the document of
 * `accountOpenApi()` of @tessera/accounts. An app's own `paths` (`tessera generate client`) has
 * them too, beside its records.
 */
export type AccountPaths = AccountApiPaths;

/** What {@link createTesseraClient} takes. */
export interface TesseraClientOptions {
  /** The service's address: `https://api.example.com`, or `/` in a page served beside it. */
  readonly baseUrl: string;
  /** The `fetch` to send with (default the global one), as openapi-fetch calls it. */
  readonly fetch?: Fetch | undefined;
  /** Where the token pair is kept (default {@link memoryTokenHolder}: gone on reload). */
  readonly tokens?: TokenHolder | undefined;
  /** The passkey ceremonies (default the browser's, through `@simplewebauthn/browser`). */
  readonly webAuthn?: WebAuthnCeremonies | undefined;
  /**
   * Whether the ways in ask for a refresh token (`"refresh": true`), which the client exchanges
   * for a new pair when the service refuses the bearer token. Default true.
   */
  readonly refresh?: boolean | undefined;
}

/** A new account: an email, a password, and the columns the app takes at sign-up. */
export interface SignUpInput {
  readonly email: string;
  readonly password: string;
  readonly [column: string]: unknown;
}

/** The account as `POST /api/auth/signup` answers it: the app's public columns besides these. */
export interface AccountUser {
  readonly id: number;
  readonly email: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly [column: string]: unknown;
}

/** The client of one Tessera service; see {@link createTesseraClient}. */
export interface TesseraClient<Paths extends {}> {
  /**
   * An openapi-fetch client of `Paths`: every call carries the held bearer token, and a 401 is
   * refreshed once and sent again when a refresh token is held.
   */
  readonly api: Client<Paths>;
  /** The same bearer `fetch`, for calls outside the document (a file download). */
  readonly fetch: Fetch;
  /** Where the token pair is kept. */
  readonly tokens: TokenHolder;
  /** `POST /api/auth/signup`: the new account (not signed in); 422 `validation_failed` with `fields`. */
  signUp(input: SignUpInput): Promise<AccountUser>;
  /** `POST /api/auth/token`: signed in, or the second factor due; 401 `invalid_credentials`. */
  signIn(credentials: {
    readonly email: string;
    readonly password: string;
  }): Promise<SignInOutcome>;
  /** Signs in with a passkey of the device (a WebAuthn ceremony); no email asked. */
  signInWithPasskey(): Promise<SignInOutcome>;
  /** Adds a passkey of the device to the signed-in account, named `name` (default the service's). */
  registerPasskey(name?: string): Promise<RegisteredPasskey>;
  /**
   * Exchanges the refresh token for a new pair now: true when one is held; false when there was
   * none or the service refused it (then the pair is cleared).
   */
  refresh(): Promise<boolean>;
  /** Revokes the refresh token's sign-in at the service (when one is held) and clears the pair. */
  signOut(): Promise<void>;
}

/**
 * The client of the Tessera service at `baseUrl`: `api`, an openapi-fetch client typed by
 * `Paths` (the account routes by default; an app passes the `paths` of its own document, which
 * `tessera generate client` writes), and the calls that are more than one fetch: sign-in with
 * its second factor, passkeys, refresh and sign-out. Refusals throw a {@link TesseraError}.
 *
 * @example
 * ```ts
 * import { createTesseraClient } from "@tessera/client";
 *
 * const client = createTesseraClient({ baseUrl: "https://api.example.com" });
 * const outcome = await client.signIn({ email: "ada@example.com", password: "correct horse battery" });
 * if (!outcome.signedIn) await outcome.secondFactor.withCode("123456");
 * const me = await client.api.GET("/api/auth/me");
 * ```
 */
export function createTesseraClient<Paths extends {} = AccountPaths>(
  options: TesseraClientOptions,
): TesseraClient<Paths> {
  const { baseUrl } = options;
  const send: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  const tokens = options.tokens ?? memoryTokenHolder();
  const refresh = tokenRefresher({ baseUrl, fetch: send, tokens });
  const withBearer = bearerFetch({ baseUrl, fetch: send, tokens, refresh });
  const context: ServiceContext = {
    baseUrl,
    fetch: send,
    bearerFetch: withBearer,
    tokens,
    webAuthn: options.webAuthn ?? browserWebAuthn,
    refresh: options.refresh ?? true,
  };
  const post = (path: string, body: unknown) => callService(send, baseUrl, "POST", path, body);

  return {
    api: createClient<Paths>({ baseUrl, fetch: withBearer }),
    fetch: withBearer,
    tokens,
    async signUp(input) {
      const answer = await post(ACCOUNT_ROUTES.signUp, input);
      if (answer.status !== 201) throw new TesseraError(answer.status, answer.body);
      return answer.body as AccountUser;
    },
    async signIn({ email, password }) {
      const body = { email, password, refresh: context.refresh };
      return signInOutcome(context, await post(ACCOUNT_ROUTES.token, body));
    },
    signInWithPasskey: () => signInWithPasskey(context),
    registerPasskey: (name) => registerPasskey(context, name),
    refresh,
    async signOut() {
      const held = await tokens.get();
      await tokens.clear();
      if (!held?.refreshToken) return;
      const revoked = await callService(send, baseUrl, "DELETE", ACCOUNT_ROUTES.refresh, {
        refresh_token: held.refreshToken,
      });
      if (revoked.status !== 204) throw new TesseraError(revoked.status, revoked.body);
    },
  };
}
