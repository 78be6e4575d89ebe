import {
  type ApiKeyHolder,
  type ApiKeyStore,
  type BearerAuthenticator,
  createBearerAuthenticator,
  createJwtIssuer,
  type JwtIssuer,
  type RefreshTokenStore,
  refreshTokens,
} from "@tessera/bearer";
import { type Clock, systemClock } from "@tessera/core";
import type { SecretKeyBase } from "@tessera/crypto";
import { type Layout, type PageHeaderOptions, plainLayout, type Route } from "@tessera/http";
import type { Mailer } from "@tessera/mail";
import type { PasswordHashOptions } from "@tessera/password";
import {
  createRateLimiter,
  type FailureStreakStore,
  type FailureThrottlePolicy,
  MemoryFailureStreakStore,
  type RateLimiter,
  type RateLimitStore,
} from "@tessera/ratelimit";
import {
  createSessionCookies,
  type MaybeSessionContext,
  type SessionCookies,
  type SessionCookiesOptions,
  type TrackedSessionStore,
} from "@tessera/session";
import {
  type AccountEvents,
  type AccountHookName,
  type AccountHooks,
  accountEvents,
} from "./account-hooks.js";
import { checkAccountRoutesOptions } from "./account-routes-check.js";
import { defaultAdminPages } from "./admin/admin-pages.js";
import { htmlAdminRoutes } from "./admin/html-admin-routes.js";
import { impersonationActorCheck, impersonationSessionCheck } from "./admin/impersonation.js";
import { jsonAdminRoutes } from "./admin/json-admin-routes.js";
import { jsonApiKeyRoutes } from "./api-keys/json-api-key-routes.js";
import { defaultActivityPage } from "./audit/activity-page.js";
import type { AuditLog } from "./audit/audit-log.js";
import { type AuditTrail, auditTrail } from "./audit/audit-trail.js";
import { htmlActivityRoutes } from "./audit/html-activity-routes.js";
import { jsonActivityRoutes } from "./audit/json-activity-routes.js";
import { withCaptcha } from "./captcha/captcha-routes.js";
import {
  type CaptchaVerifierOptions,
  captchaVerifier,
  limitedCaptchaVerifier,
} from "./captcha/captcha-verifier.js";
import { captchaPageHeaders } from "./captcha/captcha-widget.js";
import { type CurrentUser, currentUserReader } from "./current-user.js";
import { htmlSessionRoutes } from "./devices/html-session-routes.js";
import { jsonSessionRoutes } from "./devices/json-session-routes.js";
import { defaultSessionPages } from "./devices/sessions-page.js";
import { defaultEmailChangePages } from "./email-change/email-change-pages.js";
import { emailChangeRoutes } from "./email-change/email-change-routes.js";
import type { EmailChangeStore } from "./email-change/email-change-store.js";
import type { EmailCodeStore } from "./email-code/email-code-store.js";
import { emailCodeKeys } from "./email-code/email-codes.js";
import { jsonEmailCodeRoutes } from "./email-code/json-email-code-routes.js";
import type { EmailedTokenStore } from "./email-link/emailed-token-store.js";
import { htmlEmailLinkRoutes } from "./email-link/html-email-link-routes.js";
import { type AccountPages, defaultAccountPages } from "./html/account-pages.js";
import { reportMailErrorToStderr } from "./mail-error-report.js";
import { deliversMail, type MissingMailer } from "./missing-mailer.js";
import { htmlPasskeySignInRoutes } from "./passkey/html-passkey-sign-in-routes.js";
import { jsonPasskeyRoutes } from "./passkey/json-passkey-routes.js";
import type { PasskeyStore } from "./passkey/passkey-store.js";
import { passkeys } from "./passkey/passkeys.js";
import { relyingPartyOf, type WebAuthnRelyingParty } from "./passkey/webauthn-relying-party.js";
import type { BreachedPasswordCheck } from "./password/breached-passwords.js";
import { htmlPasswordRoutes } from "./password/html-password-routes.js";
import { jsonPasswordRoutes } from "./password/json-password-routes.js";
import { defaultPasswordPage } from "./password/password-pages.js";
import { htmlProfileRoutes } from "./profile/html-profile-routes.js";
import { jsonProfileRoutes } from "./profile/json-profile-routes.js";
import type { OperatorColumn } from "./profile/operator-columns.js";
import { jsonRefreshRoutes } from "./refresh/json-refresh-routes.js";
import type { FindFactorSummary } from "./second-factor/factor-summary.js";
import { htmlSecondFactorRoutes } from "./second-factor/html-second-factor-routes.js";
import { htmlSecurityRoutes } from "./second-factor/html-security-routes.js";
import { jsonSecondFactorRoutes } from "./second-factor/json-second-factor-routes.js";
import type { SecondFactorStore } from "./second-factor/second-factor-store.js";
import { secondFactors } from "./second-factor/second-factors.js";
import { defaultSecurityPages } from "./second-factor/security-page.js";
import { accountThrottle } from "./sign-in/account-throttle.js";
import { type SessionSignIns, sessionSignIns } from "./sign-in/session-sign-ins.js";
import type { TokenMailTransaction } from "./token-mail-transaction.js";
import { htmlAccountRoutes } from "./users/html-account-routes.js";
import { jsonAccountRoutes } from "./users/json-account-routes.js";
import { isBanned, type User } from "./users/user.js";
import { isUserAdministration, type UserStore } from "./users/user-store.js";

/** The stores accounts keep their rows in (`sqlAccountStores(database)` gives all four). */
export interface AccountStores {
  readonly users: UserStore;
  readonly apiKeys: ApiKeyStore;
  readonly emailedTokens: EmailedTokenStore;
  readonly rateLimits: RateLimitStore;
  /**
   * Where per-account throttling counts wrong passwords and second-factor answers
   * (`sqlAccountStores` gives the SQL one, shared by every process). Without it they are
   * counted in this process's memory: right for one process only.
   */
  readonly failureStreaks?: FailureStreakStore | undefined;
  /**
   * The audit trail (`sqlAccountStores` gives the SQL one): with it, every account event is
   * recorded (`user.signed_in`, `user.password_changed`, …) and users read their own at
   * `GET /api/auth/activity` and `/account/activity`.
   */
  readonly auditLog?: AuditLog | undefined;
  /**
   * `ADMIN_EMAILS`: confirmed addresses that are operators besides users with the `admin`
   * role. The admin routes (`/api/admin`) are mounted when the user store administers users
   * (`sqlAccountStores`' does); anyone but an operator gets a 404 there.
   */
  readonly adminEmails?: readonly string[] | undefined;
  /**
   * An API key and its user in one lookup, where both live in one database (see
   * `createBearerAuthenticator`'s `findKeyHolder`); without it, the key and then the user.
   */
  readonly findApiKeyHolder?:
    | ((digest: string) => Promise<ApiKeyHolder<User> | undefined>)
    | undefined;
  /** TOTP and backup codes: with a store, users may turn on a second factor (see README). */
  readonly secondFactors?: SecondFactorStore | undefined;
  /** Emailed sign-in codes: with a store and a mailer, `POST /api/auth/email_code` exists. */
  readonly emailCodes?: EmailCodeStore | undefined;
  /** Passkeys (WebAuthn): with a store and `appUrl`, users may add passkeys (see README). */
  readonly passkeys?: PasskeyStore | undefined;
  /**
   * Pending email changes: with a store and a mailer, users may move to a new address, which
   * takes effect once a link mailed to it is used (`/account/email`, `POST /api/auth/email`).
   */
  readonly emailChanges?: EmailChangeStore | undefined;
  /**
   * A user's confirmed TOTP and passkey count in one lookup, where `secondFactors` and
   * `passkeys` live in one database (`sqlAccountStores` gives it); without it, `GET /api/auth/me`
   * asks each store. Give it only with those two stores' own tables.
   */
  readonly findFactorSummary?: FindFactorSummary | undefined;
  /**
   * Refresh tokens of apps (`sqlAccountStores` gives the SQL store): with a store, a token
   * sign-in whose body says `"refresh": true` also answers a `refresh_token`, and
   * `POST`/`DELETE /api/auth/token/refresh` exchange and revoke it.
   */
  readonly refreshTokens?: RefreshTokenStore | undefined;
}

/** What {@link accountRoutes} is built from: the stores, the secret, and a few choices. */
export interface AccountRoutesOptions extends Omit<AccountStores, "rateLimits"> {
  /**
   * Where sign-in and mail attempts are counted (10 per minute per client and per email): a
   * counter store, or a limiter that counts for itself, such as the Workers binding
   * (`bindingRateLimiter(env.AUTH_RATE_LIMITER, { limit: 10, periodSeconds: 60 })`).
   */
  readonly rateLimits: RateLimitStore | RateLimiter;
  /** `SECRET_KEY_BASE` (at least 32 characters), or it and the previous one after a rotation. */
  readonly secretKeyBase: string | SecretKeyBase;
  /**
   * Where account mails go. Without one the app sends no mail: the pages offer no sign-in
   * links, password reset or confirmation mails, whose routes are not mounted (404), and never
   * say a mail was sent. `missingMailer("MAIL_ADAPTER")` instead keeps them offered and makes
   * those routes answer 500 naming the setting: for a deployment that forgot to configure one.
   */
  readonly mailer?: Mailer | MissingMailer | undefined;
  /**
   * Stores each emailed token and its mail in one transaction (`sqlTokenMailTransaction` of
   * `@tessera/accounts/sql`, with an outbox mailer): a crash or a failed write then never keeps
   * a token whose mail was lost. Without it the token is written, then the mail handed over.
   */
  readonly tokenMailTransaction?: TokenMailTransaction | undefined;
  /** `APP_URL`: the public origin that mail links use (see `mailLinkOrigin`). */
  readonly appUrl?: string | undefined;
  /** `ALLOWED_ORIGINS`: browser origins allowed cross-site, for forms and mail links. */
  readonly allowedOrigins?: readonly string[] | undefined;
  /** The device list: every sign-in records a device and `/account/sessions` lists them. */
  readonly trackedSessions?: TrackedSessionStore | undefined;
  /**
   * How long an app's sign-in lasts through its refresh tokens, in seconds: `REFRESH_TOKEN_TTL`,
   * default 30 days. Refreshing never extends it.
   */
  readonly refreshTokenLifetimeSeconds?: number | undefined;
  /** Names the session cookie `_<appName>_session`; default `tessera`. */
  readonly appName?: string | undefined;
  /** The name authenticator apps show beside the codes; default `appName`, else "Tessera". */
  readonly totpIssuer?: string | undefined;
  /**
   * Who asks for passkeys: by default `appUrl`'s host name as the relying party id, its origin
   * as the one origin answers may come from, and `totpIssuer`'s name. Passkeys are on with a
   * `passkeys` store and either this or `appUrl`.
   */
  readonly webAuthn?: WebAuthnRelyingParty | undefined;
  /**
   * The passkey buttons' browser code, as script URLs the app serves (`@simplewebauthn/browser`'s
   * UMD bundle, then the script that wires the buttons): given to the default pages. Without
   * them, passkeys work over JSON and the pages offer no passkey button.
   */
  readonly passkeyScripts?: readonly string[] | undefined;
  /** Whether cookies carry `Secure`; see {@link SessionCookiesOptions.secureCookies}. */
  readonly secureCookies?: SessionCookiesOptions["secureCookies"];
  /** The page frame of the HTML pages; default {@link plainLayout}. */
  readonly layout?: Layout | undefined;
  /** The HTML pages themselves; default `defaultAccountPages(layout)`. */
  readonly pages?: AccountPages | undefined;
  /**
   * How the pages' security headers differ from the defaults (`withPageHeaders` of
   * `@tessera/http`): a Content-Security-Policy extended or replaced, other headers changed.
   */
  readonly pageHeaders?: PageHeaderOptions | undefined;
  readonly operatorColumns?: readonly OperatorColumn[] | undefined;
  readonly passwords?: PasswordHashOptions | undefined;
  /**
   * Signs and verifies the bearer tokens instead of the default HS256 issuer on the secret key
   * base: `createJwtIssuer({ algorithm: "EdDSA", keys, issuer })` of `@tessera/bearer`, for
   * tokens other services verify through the published key set.
   */
  readonly jwtIssuer?: JwtIssuer | undefined;
  /**
   * Refuses a new password seen in data breaches, at sign-up, reset and change (422 on
   * `password`: `has appeared in a data breach; choose another`): `pwnedPasswords({ fetch })`,
   * which fails open. Off without it.
   */
  readonly breachedPasswords?: BreachedPasswordCheck | undefined;
  /**
   * Per-account throttling: after `failures` wrong passwords (or second-factor answers) within
   * `windowMs`, the account's further guesses wait `firstWaitMs`, doubling after each, up to
   * `maximumWaitMs` (default 10 in 15 minutes, then 1 minute doubling up to an hour). It slows
   * and never locks: emailed links and codes, passkeys and the password reset still work.
   */
  readonly throttle?: Partial<FailureThrottlePolicy> | undefined;
  readonly clock?: Clock | undefined;
  /**
   * `onSignUp`, `onSignIn`, `onUserDeleted`: run once the write committed, awaited, for every
   * flow (password, emailed link, JSON token; OAuth too, through `accountRoutes(...).signIns`).
   */
  readonly hooks?: AccountHooks | undefined;
  /**
   * A captcha (Cloudflare Turnstile or hCaptcha) on sign-up, login, the mail requests and the
   * emailed code's request: the forms show its widget, JSON clients send `captcha_token`, and a
   * token missing, refused or that cannot be verified is a 400 `captcha_failed`. Give `fetch`
   * (the app's guarded fetch) to send the verification through it. See README, "Captcha".
   */
  readonly captcha?: CaptchaVerifierOptions | undefined;
  /** Called when a hook throws; the answer stays what it was (default: one line on stderr). */
  readonly onHookError?: ((error: unknown, hook: AccountHookName) => void) | undefined;
}

/** Every account route, and the pieces they were built with, for the app's other routes. */
export interface AccountRoutes {
  /** JSON under `/api/auth/*` and the HTML pages, safe to mount in any framework as they are. */
  readonly routes: Route<MaybeSessionContext>[];
  /** The cookie sessions the pages use: hand them to other HTML route groups. */
  readonly sessions: SessionCookies;
  /** Checks JWTs and API keys: hand it to JSON route groups (`bearerAuthentication`). */
  readonly bearer: BearerAuthenticator<User>;
  /** The events that run `hooks`. */
  readonly events: AccountEvents;
  /**
   * The one sign-in grant's cookie transport: hand it to `oauthRoutes` (`signIns`), so that a
   * provider sign-in asks for the second factor and announces itself like every other way in.
   */
  readonly signIns: SessionSignIns;
  /**
   * The signed-in user of a request in the app's own routes (the cookie session; with
   * `{ bearer: true }` a bearer token too), or undefined: see {@link CurrentUser}.
   */
  readonly currentUser: CurrentUser;
  /**
   * The audit trail on `auditLog` (none without one): hand it to other route groups
   * (`organizationRoutes({ audit })`), so that their events join the accounts' in one trail.
   */
  readonly audit?: AuditTrail | undefined;
}

/**
 * Sign-up, sign-in and the account of the user, in JSON (bearer tokens and API keys) and HTML
 * (cookie sessions, emailed links), built from one set of options: the quickest way to mount
 * accounts. The parts (`jsonAccountRoutes`, `htmlAccountRoutes`, …) remain for apps that want
 * only some.
 * @throws {TypeError} naming the option and what to pass, for a missing or short secret, a
 * missing store or a store without one of its methods: configuration mistakes, found at once.
 *
 * @example
 * ```ts
 * import { accountRoutes } from "@tessera/accounts";
 * import { accountMigrations, sqlAccountStores } from "@tessera/accounts/sql";
 * import { applyMigrations, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
 *
 * const database = openSqliteFile("data/app.db");
 * await applyMigrations(database, accountMigrations);
 * const accounts = accountRoutes({
 *   ...sqlAccountStores(database),
 *   secretKeyBase: process.env.SECRET_KEY_BASE!,
 * });
 * // Mount accounts.routes; in the app's own routes, `await accounts.currentUser(request)`.
 * ```
 */
export function accountRoutes(options: AccountRoutesOptions): AccountRoutes {
  checkAccountRoutesOptions(options);
  const clock = options.clock ?? systemClock;
  const secrets =
    typeof options.secretKeyBase === "string"
      ? { current: options.secretKeyBase }
      : options.secretKeyBase;
  const sessions = createSessionCookies({
    appName: options.appName ?? "tessera",
    secrets,
    clock,
    ...(options.secureCookies === undefined ? {} : { secureCookies: options.secureCookies }),
    ...(options.trackedSessions ? { trackedSessions: options.trackedSessions } : {}),
    // An operator's page impersonation ends the moment they may no longer act, as its token.
    checkSignIn: impersonationSessionCheck({
      users: options.users,
      adminEmails: options.adminEmails,
      clock,
    }),
  });
  const jwt = options.jwtIssuer ?? createJwtIssuer({ secrets, clock });
  // A banned user's tokens and API keys find nobody: the ban is in the row each lookup reads.
  const unbanned = (user: User | undefined) =>
    user !== undefined && !isBanned(user, clock()) ? user : undefined;
  const { findApiKeyHolder } = options;
  const bearer = createBearerAuthenticator<User>({
    jwt,
    apiKeys: options.apiKeys,
    findUser: async (id) => unbanned(await options.users.findById(id)),
    credentialsChangedAt: (user) => user.credentialsChangedAt,
    // An operator's token acting as a user works while the operator may, and has not stopped.
    checkActor: impersonationActorCheck({
      users: options.users,
      adminEmails: options.adminEmails,
      clock,
    }),
    ...(findApiKeyHolder
      ? {
          findKeyHolder: async (digest: string) => {
            const holder = await findApiKeyHolder(digest);
            return holder && unbanned(holder.user) && holder;
          },
        }
      : {}),
    clock,
  });
  const rateLimiter =
    "attempt" in options.rateLimits
      ? options.rateLimits
      : createRateLimiter({ store: options.rateLimits, clock });
  const throttle = accountThrottle({
    store: options.failureStreaks ?? new MemoryFailureStreakStore(),
    secretKeyBase: secrets,
    policy: options.throttle,
    clock,
  });
  const audit = options.auditLog && auditTrail(options.auditLog, clock);
  const events = accountEvents({
    audit,
    hooks: options.hooks,
    operatorColumns: options.operatorColumns,
    onHookError: options.onHookError,
  });
  const issuer = options.totpIssuer ?? options.appName ?? "Tessera";
  const relyingParty =
    options.webAuthn ?? (options.appUrl ? relyingPartyOf(options.appUrl, issuer) : undefined);
  const passkeyParts =
    options.passkeys && relyingParty ? passkeys(options.passkeys, relyingParty, clock) : undefined;
  const factors =
    options.secondFactors &&
    secondFactors(options.secondFactors, secrets, { issuer, clock, passkeys: passkeyParts });
  // A notice needs no link route: any mailer that delivers sends it, a missing one sends nothing.
  const notices = deliversMail(options.mailer)
    ? {
        mailer: options.mailer,
        appUrl: options.appUrl,
        allowedOrigins: options.allowedOrigins,
        reportMailError: reportMailErrorToStderr,
      }
    : undefined;
  const shared = {
    users: options.users,
    rateLimiter,
    throttle,
    notices,
    clock,
    events,
    ...(options.operatorColumns ? { operatorColumns: options.operatorColumns } : {}),
    ...(options.passwords ? { passwords: options.passwords } : {}),
    ...(options.breachedPasswords ? { breachedPasswords: options.breachedPasswords } : {}),
    ...(factors ? { secondFactors: factors } : {}),
    ...(passkeyParts ? { passkeys: passkeyParts } : {}),
  };
  const signIns = sessionSignIns({ sessions, events, clock, secondFactors: factors });
  const layout = options.layout ?? plainLayout;
  const html = {
    ...shared,
    sessions,
    signIns,
    emailedTokens: options.emailedTokens,
    ...(options.emailChanges ? { emailChanges: options.emailChanges } : {}),
    ...(options.auditLog ? { auditLog: options.auditLog } : {}),
    mailer: options.mailer,
    ...(options.tokenMailTransaction ? { tokenMailTransaction: options.tokenMailTransaction } : {}),
    appUrl: options.appUrl,
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    ...(options.captcha
      ? { pageHeaders: captchaPageHeaders(options.pageHeaders, options.captcha.provider) }
      : options.pageHeaders
        ? { pageHeaders: options.pageHeaders }
        : {}),
    pages:
      options.pages ??
      defaultAccountPages(layout, {
        passkeyScripts: options.passkeyScripts ?? [],
        // The widget's public part only: the secret stays with the verifier.
        ...(options.captcha
          ? { captcha: { provider: options.captcha.provider, siteKey: options.captcha.siteKey } }
          : {}),
      }),
  };
  const refresh =
    options.refreshTokens &&
    refreshTokens({
      store: options.refreshTokens,
      secretKeyBase: secrets,
      clock,
      ttlSeconds: options.refreshTokenLifetimeSeconds,
    });
  const json = {
    ...shared,
    tokens: jwt,
    refreshTokens: refresh,
    bearer,
    ...(options.findFactorSummary ? { findFactorSummary: options.findFactorSummary } : {}),
  };
  const devices = { trackedSessions: options.trackedSessions, notices };
  // Like the sign-in links: no route without a mailer, a 500 naming the setting with a missing one.
  const emailCodeRoutes =
    options.emailCodes && options.mailer
      ? jsonEmailCodeRoutes({
          ...json,
          emailCodes: options.emailCodes,
          emailCodeKeys: emailCodeKeys(secrets),
          mailer: options.mailer,
          tokenMailTransaction: options.tokenMailTransaction,
        })
      : [];
  const unprotectedRoutes = [
    ...jsonAccountRoutes(json),
    ...(refresh
      ? jsonRefreshRoutes({ refreshTokens: refresh, tokens: jwt, users: options.users, clock })
      : []),
    ...jsonPasswordRoutes({ ...json, ...devices }),
    ...jsonProfileRoutes(json),
    ...emailCodeRoutes,
    ...(factors ? jsonSecondFactorRoutes({ ...json, secondFactors: factors }) : []),
    ...(passkeyParts ? jsonPasskeyRoutes({ ...json, passkeys: passkeyParts }) : []),
    ...jsonApiKeyRoutes({
      apiKeys: options.apiKeys,
      bearer,
      clock,
      secondFactors: factors,
      events,
    }),
    // GET/DELETE /api/auth/sessions: browsers and apps; nothing without either store.
    ...jsonSessionRoutes({
      bearer,
      trackedSessions: options.trackedSessions,
      refreshTokens: options.refreshTokens,
      events,
      clock,
    }),
    ...htmlAccountRoutes(html),
    ...htmlPasswordRoutes({ ...html, notices, passwordPage: defaultPasswordPage(layout) }),
    ...htmlProfileRoutes(html),
    ...(factors ? htmlSecondFactorRoutes({ ...html, secondFactors: factors }) : []),
    ...(passkeyParts ? htmlPasskeySignInRoutes({ ...html, passkeys: passkeyParts }) : []),
    ...(factors || passkeyParts
      ? htmlSecurityRoutes({
          ...html,
          securityPages: defaultSecurityPages(layout, options.passkeyScripts ?? []),
        })
      : []),
    ...htmlEmailLinkRoutes(html),
    ...(options.emailChanges
      ? emailChangeRoutes({
          ...html,
          bearer,
          emailChanges: options.emailChanges,
          emailChangePages: defaultEmailChangePages(layout),
        })
      : []),
    ...(options.trackedSessions
      ? htmlSessionRoutes({
          ...html,
          pages: defaultSessionPages(layout),
          refreshTokens: options.refreshTokens,
        })
      : []),
    ...(isUserAdministration(options.users)
      ? htmlAdminRoutes({
          ...html,
          users: options.users,
          events,
          apiKeys: options.apiKeys,
          adminPages: defaultAdminPages(layout),
          adminEmails: options.adminEmails,
          auditLog: options.auditLog,
          findFactorSummary: options.findFactorSummary,
          clock,
        })
      : []),
    ...(isUserAdministration(options.users)
      ? jsonAdminRoutes({
          users: options.users,
          bearer,
          tokens: jwt,
          events,
          apiKeys: options.apiKeys,
          adminEmails: options.adminEmails,
          operatorColumns: options.operatorColumns,
          auditLog: options.auditLog,
          trackedSessions: options.trackedSessions,
          findFactorSummary: options.findFactorSummary,
          clock,
        })
      : []),
    ...(options.auditLog
      ? [
          ...jsonActivityRoutes({ bearer, auditLog: options.auditLog }),
          ...htmlActivityRoutes({
            ...html,
            auditLog: options.auditLog,
            activityPage: defaultActivityPage(layout),
          }),
        ]
      : []),
  ];
  const currentUser = currentUserReader(sessions, bearer, options.users);
  const routes = options.captcha
    ? withCaptcha(unprotectedRoutes, {
        ...html,
        verify: limitedCaptchaVerifier(captchaVerifier(options.captcha), rateLimiter),
        provider: options.captcha.provider,
        layout,
      })
    : unprotectedRoutes;
  return { routes, sessions, bearer, events, signIns, currentUser, audit };
}
