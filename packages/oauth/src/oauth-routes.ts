import {
  accountMessages,
  type HtmlRequestContext,
  type SessionSignIns,
  type UserStore,
} from "@tessera/accounts";
import { type Clock, type Locale, systemClock } from "@tessera/core";
import { constantTimeEqualText, randomToken } from "@tessera/crypto";
import { httpMessages, type Route, seeOther, withMiddleware } from "@tessera/http";
import {
  type HtmlRouteSafety,
  LOGIN_PATH,
  type MaybeSessionContext,
  pageSafety,
} from "@tessera/session";
import * as oauth from "oauth4webapi";
import { authorizationServerLookup } from "./authorization-servers.js";
import { fetchProviderProfile } from "./code-exchange.js";
import type { IdentityStore } from "./identity-store.js";
import { type OAuthMessageId, oauthMessages } from "./oauth-messages.js";
import { type OAuthUserRefusal, resolveOAuthUser } from "./oauth-user.js";
import { pendingLinkValue, readPendingLink } from "./pending-link.js";
import type { OAuthProvider } from "./provider.js";
import type { FetchFunction, ProviderHttp } from "./provider-http.js";
import type { ProviderProfile } from "./provider-profile.js";

/**
 * The session values a sign-in flow holds between `POST /auth/{provider}` and its callback:
 * three of the session's four extra values, all taken out by the callback.
 */
export const OAUTH_SESSION_VALUES = {
  state: "oauth_state",
  verifier: "oauth_verifier",
  provider: "oauth_provider",
} as const;

/** How long one request to a provider may take, unless told otherwise: 10 seconds. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

/** What the OAuth routes are built from. */
export interface OAuthRoutesOptions extends HtmlRouteSafety {
  /** The configured providers (`oauthProvidersFromEnv(env)`); names must differ. */
  readonly providers: readonly OAuthProvider[];
  readonly users: UserStore;
  readonly identities: IdentityStore;
  /**
   * `APP_URL`: its origin makes `redirect_uri` (`<origin>/auth/<provider>/callback`), never the
   * request's `Host`, which a client can forge. Register that address at each provider.
   */
  readonly appUrl: string;
  readonly clock?: Clock | undefined;
  /** The `fetch` that reaches providers (default `globalThis.fetch`). */
  readonly fetch?: FetchFunction | undefined;
  /** Per request to a provider; default {@link DEFAULT_PROVIDER_TIMEOUT_MS}. */
  readonly providerTimeoutMs?: number | undefined;
  /**
   * A provider that could not be reached, refused the code or answered nonsense, and provider
   * errors other than `access_denied`, are reported here (default: one line on stderr); the
   * user sees a short alert.
   */
  readonly onProviderError?: ((error: unknown, provider: string) => void) | undefined;
  /**
   * The one sign-in grant of accounts: `accountRoutes(...).signIns`. A provider sign-in ends
   * there like every other way in: a user with a second factor is asked for it (and a new link
   * to an existing account is made only once it passed), and sign-ups and sign-ins are
   * announced to the accounts' hooks (`onSignUp`, `onSignIn`, method `oauth`).
   */
  readonly signIns: SessionSignIns;
}

/** The name of the work a provider sign-in leaves for after its second step: the link. */
export const OAUTH_LINK_STEP = "oauth_link";

type Handler = Route<HtmlRequestContext>["handle"];

function notFoundPage(locale: Locale | undefined): Response {
  return new Response(httpMessages.text(locale, "http.not_found"), {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** The 303 to `/login` with the alert `id` in the request's locale, about `provider` (a label). */
function refusal(context: HtmlRequestContext, id: OAuthMessageId, provider?: string): Response {
  const params = provider === undefined ? undefined : { provider };
  context.session.flash("alert", oauthMessages.text(context.locale, id, params));
  return seeOther(LOGIN_PATH);
}

function refusalMessage(reason: OAuthUserRefusal): OAuthMessageId {
  switch (reason) {
    case "email-missing":
      return "oauth.email_missing";
    case "email-unverified":
      return "oauth.email_unverified";
    case "conflict":
      return "oauth.failed";
  }
}

function reportToStderr(error: unknown, provider: string): void {
  console.error(`Signing in with ${provider} failed: ${(error as Error)?.message ?? error}`);
}

/**
 * The routes of provider sign-in: `POST /auth/:provider` (stores state and PKCE verifier, 303
 * to the provider) and `GET /auth/:provider/callback` (checks, exchanges, signs in; 303 to `/`
 * or `/login`). An unknown provider is a 404. Safe mounted anywhere: see `pageSafety`.
 * @throws {TypeError} for an `appUrl` that is not an http(s) URL, or two providers of one name.
 *
 * @example
 * ```ts
 * import { accountRoutes } from "@tessera/accounts";
 * import { SqlUserStore, sqlAccountStores } from "@tessera/accounts/sql";
 * import { oauthProvidersFromEnv, oauthRoutes } from "@tessera/oauth";
 * import { SqlIdentityStore } from "@tessera/oauth/sql";
 * import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
 *
 * const database = openSqliteFile("data/app.db");
 * const accounts = accountRoutes({ ...sqlAccountStores(database), secretKeyBase: process.env.SECRET_KEY_BASE! });
 * const routes = oauthRoutes({
 *   providers: oauthProvidersFromEnv(process.env), // GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET, ...
 *   users: new SqlUserStore(database),
 *   identities: new SqlIdentityStore(database),
 *   appUrl: "https://app.example",
 *   sessions: accounts.sessions,
 *   signIns: accounts.signIns,
 *   allowedOrigins: ["https://app.example"],
 * });
 * ```
 */
export function oauthRoutes(options: OAuthRoutesOptions): Route<MaybeSessionContext>[] {
  const appOrigin = new URL(options.appUrl).origin;
  if (!/^https?:\/\//.test(appOrigin)) throw new TypeError("appUrl must be an http(s) URL");
  const providers = new Map(options.providers.map((provider) => [provider.name, provider]));
  if (providers.size !== options.providers.length) {
    throw new TypeError("two OAuth providers share a name");
  }
  const clock = options.clock ?? systemClock;
  const http: ProviderHttp = {
    fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
    timeoutMs: options.providerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
  };
  const lookUp = authorizationServerLookup(http);
  const report = options.onProviderError ?? reportToStderr;
  const { signIns } = options;
  const { events } = signIns;
  // A link that waited for the second step: made once it passed, for the user who passed it.
  signIns.afterSecondStep(OAUTH_LINK_STEP, async (user, value) => {
    const link = readPendingLink(value);
    if (!link || !providers.has(link.provider)) return;
    // A provider account linked to someone else meanwhile stays theirs.
    await options.identities.link({ ...link, userId: user.id, email: user.email }, clock());
  });
  const redirectUri = (provider: OAuthProvider) => `${appOrigin}/auth/${provider.name}/callback`;

  const handlers = {
    async start(_request, context) {
      const provider = providers.get(context.params.provider ?? "");
      if (!provider) return notFoundPage(context.locale);
      let server: oauth.AuthorizationServer;
      try {
        server = await lookUp(provider);
      } catch (error) {
        report(error, provider.name);
        return refusal(context, "oauth.failed", provider.label);
      }
      const state = randomToken();
      // 43 unreserved characters: a valid PKCE verifier (RFC 7636, §4.1) with 256 random bits.
      const verifier = randomToken();
      context.session.set(OAUTH_SESSION_VALUES.state, state);
      context.session.set(OAUTH_SESSION_VALUES.verifier, verifier);
      context.session.set(OAUTH_SESSION_VALUES.provider, provider.name);
      const url = new URL(server.authorization_endpoint!);
      const parameters = {
        response_type: "code",
        client_id: provider.clientId,
        redirect_uri: redirectUri(provider),
        scope: provider.scope,
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      };
      for (const [key, value] of Object.entries(parameters)) url.searchParams.set(key, value);
      return seeOther(url.href);
    },

    async callback(request, context) {
      const provider = providers.get(context.params.provider ?? "");
      if (!provider) return notFoundPage(context.locale);
      const { session } = context;
      // Taken before any check, so a state serves one callback whatever its outcome.
      const expectedState = session.take(OAUTH_SESSION_VALUES.state);
      const verifier = session.take(OAUTH_SESSION_VALUES.verifier);
      const startedWith = session.take(OAUTH_SESSION_VALUES.provider);
      const parameters = new URL(request.url).searchParams;
      const state = parameters.get("state");
      if (
        expectedState === undefined ||
        verifier === undefined ||
        startedWith !== provider.name ||
        state === null ||
        !constantTimeEqualText(state, expectedState)
      ) {
        return refusal(context, "oauth.state_invalid");
      }
      const error = parameters.get("error");
      if (error !== null) {
        if (error === "access_denied") {
          return refusal(context, "oauth.cancelled", provider.label);
        }
        const shown = JSON.stringify(error.slice(0, 100));
        report(new Error(`the provider answered error=${shown}`), provider.name);
        return refusal(context, "oauth.provider_error", provider.label);
      }
      if (!parameters.get("code")) {
        return refusal(context, "oauth.missing_code", provider.label);
      }

      let profile: ProviderProfile;
      try {
        const server = await lookUp(provider);
        const exchange = {
          callbackParameters: parameters,
          redirectUri: redirectUri(provider),
          codeVerifier: verifier,
        };
        profile = await fetchProviderProfile(provider, server, exchange, http);
      } catch (failure) {
        report(failure, provider.name);
        return refusal(context, "oauth.failed", provider.label);
      }

      const resolved = await resolveOAuthUser(
        { users: options.users, identities: options.identities, clock, factors: signIns },
        provider.name,
        profile,
      );
      if (!resolved.ok) return refusal(context, refusalMessage(resolved.reason), provider.label);
      const { user, outcome, passwordRemoved } = resolved.value;
      const at = { request, clientAddress: context.clientAddress };
      if (outcome === "created") await events.signedUp(user, "oauth", at);
      const link = pendingLinkValue(provider.name, profile.subject);
      const afterSecondStep =
        outcome === "link-after-second-step" && link !== undefined
          ? { step: OAUTH_LINK_STEP, value: link }
          : undefined;
      const granted = await signIns.grant(user, { method: "oauth" }, request, context, {
        ...(afterSecondStep ? { afterSecondStep } : {}),
      });
      if (!granted.signedIn) return seeOther(granted.continueAt);
      const destination = granted.rememberedPage ?? "/";
      const { locale } = context;
      session.flash("notice", accountMessages.text(locale, "accounts.signed_in"));
      if (passwordRemoved) {
        session.flash("notice", oauthMessages.text(locale, "oauth.password_removed"));
      }
      return seeOther(destination);
    },
  } satisfies Record<string, Handler>;

  return withMiddleware(
    [
      { method: "POST", path: "/auth/:provider", handle: handlers.start },
      { method: "GET", path: "/auth/:provider/callback", handle: handlers.callback },
    ],
    pageSafety(options),
  );
}
