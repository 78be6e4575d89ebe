import {
  type AccountRoutesOptions,
  type AuditTrail,
  accountRoutes,
  type CaptchaFetch,
  defaultAccountPages,
  missingMailer,
  nameColumn,
  type TokenMailTransaction,
  type User,
  type UserStore,
} from "@tessera/accounts";
import { sqlAccountStores } from "@tessera/accounts/sql";
import type { BearerAuthenticator } from "@tessera/bearer";
import { type Clock, systemClock } from "@tessera/core";
import type { TesseraEnv } from "@tessera/hono";
import type { Route } from "@tessera/http";
import type { Mailer } from "@tessera/mail";
import { oauthRoutes, renderProviderButtons } from "@tessera/oauth";
import { SqlIdentityStore } from "@tessera/oauth/sql";
import { keepSoleOwners } from "@tessera/organizations/routes";
import type { OutboundWebhooks } from "@tessera/outbound";
import type { RateLimiter } from "@tessera/ratelimit";
import type { MaybeSessionContext, SessionCookies, TrackedSessionStore } from "@tessera/session";
import type { SessionEnv } from "@tessera/session/hono";
import type { SqlDatabase } from "@tessera/sql";
import type { Hono } from "hono";
import type { AppConfig } from "./config.js";
import { chooseLocale } from "./locales/shipped-catalogs.js";
import { appOrganizationStore } from "./organizations.js";
import { renderLayout } from "./views/layout.js";

/** The Hono app type of the example app: every request has its cookie session and address. */
export type AppHono = Hono<TesseraEnv & SessionEnv>;

/** What the account routes are wired from. */
export interface AccountWiring {
  readonly database: SqlDatabase;
  readonly config: AppConfig;
  readonly secretKeyBase: string;
  readonly mailer: Mailer | undefined;
  /**
   * The scripts the pages load for their passkey buttons, where the app serves them (the Node
   * app does; without them the pages offer no passkey button).
   */
  readonly passkeyScripts?: readonly string[];
  /** Writes each emailed token and its mail in one transaction; default: one after the other. */
  readonly tokenMailTransaction?: TokenMailTransaction;
  readonly clock?: Clock;
  /** The device list option's store, when it is on. */
  readonly trackedSessions: TrackedSessionStore | undefined;
  /** Whether the browser reached the app over HTTPS: then cookies are `Secure`. */
  readonly overHttps: (request: Request) => boolean;
  /** Counts sign-in and mail attempts instead of the SQL counters (the Workers binding). */
  readonly rateLimiter?: RateLimiter;
  /** Password hashing under the runtime's limits (the Workers' PBKDF2 cap); default: none. */
  readonly passwords?: AccountRoutesOptions["passwords"];
  /** Refuses new passwords seen in breaches (`PWNED_PASSWORDS`); without it none is looked up. */
  readonly breachedPasswords?: AccountRoutesOptions["breachedPasswords"];
  /** The users' webhook endpoints: a deleted user's go with them (no foreign key holds them). */
  readonly outbound?: OutboundWebhooks<SqlDatabase>;
  /** Signs the bearer tokens (`JWT_ALGORITHM=EdDSA|ES256`); default HS256 on the secret. */
  readonly jwtIssuer?: AccountRoutesOptions["jwtIssuer"];
  /** Sends the captcha's verifications (the app's guarded fetch); default the runtime's fetch. */
  readonly captchaFetch?: CaptchaFetch;
}

/** The app's accounts: their routes, and what the app's other routes reuse. */
export interface AppAccounts {
  readonly routes: Route<MaybeSessionContext>[];
  readonly sessions: SessionCookies;
  readonly bearer: BearerAuthenticator<User>;
  readonly users: UserStore;
  /** The audit trail the accounts record in: the organizations' events go there too. */
  readonly audit: AuditTrail | undefined;
}

/** The operator columns of this app's `users` table. */
export const operatorColumns = [nameColumn];

/**
 * The account routes (docs/routes.md): JSON under `/api/auth/*`, the HTML pages, the device
 * list when tracked sessions are on, and provider sign-in when providers are configured.
 */
export function appAccounts(wiring: AccountWiring): AppAccounts {
  const { database, config } = wiring;
  const clock = wiring.clock ?? systemClock;
  const stores = sqlAccountStores(
    database,
    operatorColumns.map((column) => column.name),
    { maximumStalenessMs: config.credentialCacheMs, clock },
  );
  const accounts = accountRoutes({
    users: stores.users,
    apiKeys: stores.apiKeys,
    ...(stores.findApiKeyHolder ? { findApiKeyHolder: stores.findApiKeyHolder } : {}),
    findFactorSummary: stores.findFactorSummary,
    emailedTokens: stores.emailedTokens,
    secondFactors: stores.secondFactors,
    emailCodes: stores.emailCodes,
    passkeys: stores.passkeys,
    emailChanges: stores.emailChanges,
    passkeyScripts: wiring.passkeyScripts ?? [],
    rateLimits: wiring.rateLimiter ?? stores.rateLimits,
    failureStreaks: stores.failureStreaks,
    auditLog: stores.auditLog,
    refreshTokens: stores.refreshTokens,
    refreshTokenLifetimeSeconds: config.refreshTokenTtlSeconds,
    adminEmails: config.adminEmails,
    secretKeyBase: { current: wiring.secretKeyBase, previous: config.secretKeyBasePrevious },
    // Production without MAIL_ADAPTER is a deployment mistake: the mail routes answer 500.
    mailer: wiring.mailer ?? missingMailer("MAIL_ADAPTER"),
    ...(wiring.tokenMailTransaction ? { tokenMailTransaction: wiring.tokenMailTransaction } : {}),
    appUrl: config.appUrl,
    allowedOrigins: config.allowedOrigins,
    secureCookies: wiring.overHttps,
    layout: renderLayout,
    pages: defaultAccountPages(renderLayout, {
      loginExtrasHtml: (locale) => renderProviderButtons(config.oauthProviders, locale),
      passkeyScripts: wiring.passkeyScripts ?? [],
      ...(config.captcha
        ? { captcha: { provider: config.captcha.provider, siteKey: config.captcha.siteKey } }
        : {}),
    }),
    operatorColumns,
    clock,
    ...(wiring.trackedSessions ? { trackedSessions: wiring.trackedSessions } : {}),
    ...(wiring.passwords ? { passwords: wiring.passwords } : {}),
    jwtIssuer: wiring.jwtIssuer,
    ...(wiring.breachedPasswords ? { breachedPasswords: wiring.breachedPasswords } : {}),
    ...(config.captcha
      ? {
          captcha: {
            ...config.captcha,
            ...(wiring.captchaFetch ? { fetch: wiring.captchaFetch } : {}),
          },
        }
      : {}),
    hooks: {
      // An organization's only owner keeps their account until it has another owner.
      beforeUserDeleted: keepSoleOwners({
        organizations: appOrganizationStore(database),
        localeOf: chooseLocale,
      }),
      ...(wiring.outbound ? { onUserDeleted: deleteWebhooksOf(wiring.outbound) } : {}),
    },
  });
  const providerSignIn =
    config.oauthProviders.length > 0
      ? oauthRoutes({
          providers: config.oauthProviders,
          users: stores.users,
          identities: new SqlIdentityStore(database),
          appUrl: config.appUrl!,
          clock,
          sessions: accounts.sessions,
          allowedOrigins: config.allowedOrigins,
          // The one sign-in grant: the second factor, and the hooks given to accountRoutes.
          signIns: accounts.signIns,
        })
      : [];
  return {
    ...accounts,
    routes: [...accounts.routes, ...providerSignIn],
    users: stores.users,
    audit: accounts.audit,
  };
}

/** Deletes a deleted user's webhook endpoints, messages and attempts. */
function deleteWebhooksOf(outbound: OutboundWebhooks<SqlDatabase>) {
  return ({ user }: { readonly user: { readonly id: number } }) => outbound.deleteOwner(user.id);
}
