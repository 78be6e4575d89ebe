import {
  defaultAccountPages,
  defaultSessionPages,
  type HtmlRequestContext,
  htmlAccountRoutes,
  htmlEmailLinkRoutes,
  htmlSessionRoutes,
  jsonAccountRoutes,
  jsonApiKeyRoutes,
  nameColumn,
  type User,
} from "@tessera/accounts";
import {
  type BearerAuthenticator,
  createBearerAuthenticator,
  createJwtIssuer,
} from "@tessera/bearer";
import { type Clock, systemClock } from "@tessera/crypto";
import type { Mailer } from "@tessera/mail";
import { oauthRoutes, renderProviderButtons } from "@tessera/oauth";
import { createRateLimiter } from "@tessera/ratelimit";
import {
  endCurrentTrackedSession,
  startTrackedSession,
  type TrackedSessionStore,
} from "@tessera/session";
import {
  type SqlDatabase,
  SqliteApiKeyStore,
  SqliteEmailedTokenStore,
  SqliteIdentityStore,
  SqliteRateLimitStore,
  SqliteUserStore,
} from "@tessera/sqlite";
import type { Context, Hono } from "hono";
import type { AppConfig } from "./config.js";
import { requestContext } from "./request-context.js";
import type { SessionVariables } from "./session-middleware.js";
import { renderLayout } from "./views/layout.js";

/** The Hono app type of the example app: every request has its cookie session. */
export type AppHono = Hono<{ Variables: SessionVariables }>;

/** What the account routes are wired from. */
export interface AccountWiring {
  readonly database: SqlDatabase;
  readonly config: AppConfig;
  readonly secretKeyBase: string;
  readonly mailer: Mailer | undefined;
  readonly clock?: Clock;
  /** The device list option's store, when it is on. */
  readonly trackedSessions: TrackedSessionStore | undefined;
}

/** The operator columns of this app's `users` table. */
export const operatorColumns = [nameColumn];

/** Mounts the account routes (docs/routes.md): JSON under `/api/auth/*`, and the HTML pages. */
export function mountAccountRoutes(
  app: AppHono,
  wiring: AccountWiring,
): { users: SqliteUserStore; bearer: BearerAuthenticator<User> } {
  const { database, config } = wiring;
  const clock = wiring.clock ?? systemClock;
  const users = new SqliteUserStore(
    database,
    operatorColumns.map((column) => column.name),
  );
  const apiKeys = new SqliteApiKeyStore(database);
  const jwt = createJwtIssuer({
    secrets: { current: wiring.secretKeyBase, previous: config.secretKeyBasePrevious },
    clock,
  });
  const bearer = createBearerAuthenticator<User>({
    jwt,
    apiKeys,
    findUser: (id) => users.findById(id),
    clock,
  });
  const rateLimiter = createRateLimiter({ store: new SqliteRateLimitStore(database), clock });
  const context = (c: Context) => requestContext(c, config.trustProxy);
  const htmlContext = (c: Context<{ Variables: SessionVariables }>): HtmlRequestContext => ({
    ...context(c),
    session: c.get("session"),
  });

  const accounts = jsonAccountRoutes({
    users,
    operatorColumns,
    tokens: jwt,
    bearer,
    rateLimiter,
    clock,
  });
  const keys = jsonApiKeyRoutes({ apiKeys, bearer, clock });
  app.post("/api/auth/signup", (c) => accounts.signup(c.req.raw, context(c)));
  app.post("/api/auth/token", (c) => accounts.token(c.req.raw, context(c)));
  app.get("/api/auth/me", (c) => accounts.me(c.req.raw, context(c)));
  app.delete("/api/auth/me", (c) => accounts.deleteMe(c.req.raw, context(c)));
  app.get("/api/auth/keys", (c) => keys.listKeys(c.req.raw, context(c)));
  app.post("/api/auth/keys", (c) => keys.createKey(c.req.raw, context(c)));
  app.delete("/api/auth/keys/:id", (c) => keys.deleteKey(c.req.raw, context(c), c.req.param("id")));

  const trackedSessions = wiring.trackedSessions;
  // With tracked sessions every sign-in records its device, and logout deletes the row.
  const afterSignIn = async (_user: User, request: Request, context: HtmlRequestContext) => {
    if (!trackedSessions) return;
    await startTrackedSession(trackedSessions, context.session, {
      ipAddress: context.clientAddress,
      userAgent: request.headers.get("user-agent"),
      clock,
    });
  };
  const beforeSignOut = async (_request: Request, context: HtmlRequestContext) => {
    if (trackedSessions) await endCurrentTrackedSession(trackedSessions, context.session);
  };
  const htmlOptions = {
    users,
    operatorColumns,
    emailedTokens: new SqliteEmailedTokenStore(database),
    mailer: wiring.mailer,
    mailLinks: { appUrl: config.appUrl, allowedOrigins: config.allowedOrigins },
    rateLimiter,
    pages: defaultAccountPages(renderLayout, {
      loginExtrasHtml: renderProviderButtons(config.oauthProviders),
    }),
    clock,
    ...(trackedSessions ? { trackedSessions, afterSignIn, beforeSignOut } : {}),
  };
  const pages = htmlAccountRoutes(htmlOptions);
  const links = htmlEmailLinkRoutes(htmlOptions);
  app.get("/signup", (c) => pages.signupForm(c.req.raw, htmlContext(c)));
  app.post("/signup", (c) => pages.signup(c.req.raw, htmlContext(c)));
  app.get("/login", (c) => pages.loginForm(c.req.raw, htmlContext(c)));
  app.post("/login", (c) => pages.login(c.req.raw, htmlContext(c)));
  app.post("/logout", (c) => pages.logout(c.req.raw, htmlContext(c)));
  app.get("/account", (c) => pages.account(c.req.raw, htmlContext(c)));
  app.post("/account/delete", (c) => pages.deleteAccount(c.req.raw, htmlContext(c)));
  app.get("/magic_link", (c) => links.magicLinkForm(c.req.raw, htmlContext(c)));
  app.post("/magic_link", (c) => links.requestMagicLink(c.req.raw, htmlContext(c)));
  app.get("/magic_link/:token", (c) =>
    links.magicLinkPage(c.req.raw, htmlContext(c), c.req.param("token")),
  );
  app.post("/magic_link/:token", (c) =>
    links.useMagicLink(c.req.raw, htmlContext(c), c.req.param("token")),
  );
  app.get("/passwords/new", (c) => links.passwordResetForm(c.req.raw, htmlContext(c)));
  app.post("/passwords", (c) => links.requestPasswordReset(c.req.raw, htmlContext(c)));
  app.get("/passwords/:token", (c) =>
    links.newPasswordForm(c.req.raw, htmlContext(c), c.req.param("token")),
  );
  app.post("/passwords/:token", (c) =>
    links.resetPassword(c.req.raw, htmlContext(c), c.req.param("token")),
  );
  app.post("/confirmations", (c) => links.resendConfirmation(c.req.raw, htmlContext(c)));
  app.get("/confirmations/:token", (c) =>
    links.confirmationPage(c.req.raw, htmlContext(c), c.req.param("token")),
  );
  app.post("/confirmations/:token", (c) =>
    links.confirm(c.req.raw, htmlContext(c), c.req.param("token")),
  );
  if (config.oauthProviders.length > 0) {
    const oauth = oauthRoutes({
      providers: config.oauthProviders,
      users,
      identities: new SqliteIdentityStore(database),
      appUrl: config.appUrl!,
      clock,
      afterSignIn,
    });
    app.post("/auth/:provider", (c) =>
      oauth.start(c.req.raw, htmlContext(c), c.req.param("provider")),
    );
    app.get("/auth/:provider/callback", (c) =>
      oauth.callback(c.req.raw, htmlContext(c), c.req.param("provider")),
    );
  }
  if (trackedSessions) {
    const devices = htmlSessionRoutes({
      users,
      trackedSessions,
      pages: defaultSessionPages(renderLayout),
      clock,
    });
    app.get("/account/sessions", (c) => devices.sessionsPage(c.req.raw, htmlContext(c)));
    // Registered before `:id/delete`, which would otherwise take "others" as an id.
    app.post("/account/sessions/others/delete", (c) =>
      devices.endOtherSessions(c.req.raw, htmlContext(c)),
    );
    app.post("/account/sessions/:id/delete", (c) =>
      devices.endSession(c.req.raw, htmlContext(c), c.req.param("id")),
    );
  }
  return { users, bearer };
}
