import { getConnInfo as nodeConnInfo } from "@hono/node-server/conninfo";
import type { TokenMailTransaction, User } from "@tessera/accounts";
import { bearerAuthentication, jwksRoute, type KeySet } from "@tessera/bearer";
import type { Clock } from "@tessera/core";
import type { CompileQuery } from "@tessera/graphql";
import {
  clientAddress,
  crossSiteProtection,
  hostCheck,
  mount,
  securityHeaders,
} from "@tessera/hono";
import { jsonAnswer, localeNegotiation, notFound, withMiddleware } from "@tessera/http";
import type { Mailer } from "@tessera/mail";
import { organizationCallers, organizationOwner } from "@tessera/organizations/routes";
import type { OutboundWebhooks } from "@tessera/outbound";
import {
  type EndpointOwnerResolver,
  outboundPages,
  outboundRoutes,
  userEndpointOwner,
  WEBHOOK_ENDPOINT_RATE_LIMIT,
  WEBHOOK_REPLAY_RATE_LIMIT,
  webhookEventTypesRoute,
} from "@tessera/outbound/routes";
import { createRateLimiter, type RateLimiter } from "@tessera/ratelimit";
import { SqlRateLimitStore } from "@tessera/ratelimit/sql";
import type { ObjectStorage } from "@tessera/records";
import {
  type HtmlRouteContext,
  type SessionCookies,
  sessionAuthentication,
  type TrackedSessionStore,
} from "@tessera/session";
import type { SqlDatabase } from "@tessera/sql";
import type { GetConnInfo } from "hono/conninfo";
import { type AccountWiring, type AppHono, appAccounts } from "./accounts.js";
import type { AppConfig } from "./config.js";
import { reachedOverHttps } from "./https-requests.js";
import { appJwtIssuer } from "./jwt-keys.js";
import { lazyRoutes } from "./lazy-routes.js";
import { chooseLocale, SHIPPED_CATALOGS } from "./locales/shipped-catalogs.js";
import {
  appOrganizationPages,
  appOrganizationRoutes,
  appOrganizationStore,
  withOrganizationSwitcher,
} from "./organizations.js";
import { appEventTypes, type RecordWiring, recordApiRoutes, recordPageRoutes } from "./records.js";
import { type RenderJobs, renderJobRoutes } from "./render-jobs.js";
import { answerUnhandledError } from "./unhandled-error.js";
import { renderLayout } from "./views/layout.js";
import { webhookRoutes } from "./webhooks.js";

/** What the service is built from: its settings, its open database, its mailer and storage. */
export interface AppDependencies {
  readonly config: AppConfig;
  readonly secretKeyBase: string;
  readonly database: SqlDatabase;
  readonly mailer: Mailer | undefined;
  /** The passkey buttons' scripts, where the app serves them (see `AccountWiring`). */
  readonly passkeyScripts?: readonly string[];
  /** Writes each emailed token and its mail in one transaction (the mail outbox's database). */
  readonly tokenMailTransaction?: TokenMailTransaction;
  /**
   * Users' webhook endpoints and the events sent to them (`appOutboundWebhooks`): the webhook
   * endpoint routes and page, and the notes' events. Without it neither is served.
   */
  readonly outbound?: OutboundWebhooks<SqlDatabase>;
  /** The time source of sessions, tokens and rate limits (tests move it). */
  readonly clock?: Clock;
  /** The device list option's store, when `TRACKED_SESSIONS` is not `off`. */
  readonly trackedSessions: TrackedSessionStore | undefined;
  /** Where uploaded files go. */
  readonly storage: ObjectStorage;
  /** The render job, when its settings are there (see render-jobs.ts). */
  readonly renderJobs: RenderJobs | undefined;
  /** Counts sign-in and mail attempts; default: the SQL counters in `database`. */
  readonly rateLimiter?: RateLimiter;
  /** Password hashing under the runtime's limits (the Workers' PBKDF2 cap). */
  readonly passwords?: AccountWiring["passwords"];
  /**
   * The signing keys of `JWT_ALGORITHM=EdDSA|ES256` (`appJwtKeys`): the tokens are signed with
   * them and `/.well-known/jwks.json` publishes them. Without them, HS256.
   */
  readonly jwtKeys?: KeySet | undefined;
  /** `PWNED_PASSWORDS`' check (`appBreachedPasswords`, on the runtime's guarded fetch). */
  readonly breachedPasswords?: AccountWiring["breachedPasswords"];
  /** Sends the captcha's verifications (the guarded fetch on Node); default the runtime's fetch. */
  readonly captchaFetch?: AccountWiring["captchaFetch"];
  /** The runtime's Hono `getConnInfo`, for the client's socket address; default Node's. */
  readonly getConnInfo?: GetConnInfo;
  /**
   * Loads what compiles GraphQL operations (graphql-jit's `compileQuery`) where the runtime lets
   * code be generated, on the first operation; without it graphql-js interprets them (Workers).
   */
  readonly loadGraphqlCompiler?: () => Promise<CompileQuery>;
}

const OPENAPI_PATH = "/api/openapi.json";

/** What the app's own pages reuse of the service. */
export interface MountedService {
  /** Finds the signed-in user of a session. */
  readonly findUser: (id: number) => Promise<User | undefined>;
  /** The cookie session the service's pages open: the app's own pages open the same. */
  readonly sessions: SessionCookies;
}

/**
 * Mounts the whole service on `app`, on any runtime: the security middleware (the host check in
 * production), every account, record, webhook and render-job route, `GET /api/health`,
 * `GET /api/openapi.json`, and the JSON 404 and 500 answers.
 * The Node app adds its pages and assets; the Worker serves it as it is.
 */
export function mountService(app: AppHono, dependencies: AppDependencies): MountedService {
  const { config, database } = dependencies;
  const overHttps = reachedOverHttps(config);
  const accounts = appAccounts({
    database,
    config,
    secretKeyBase: dependencies.secretKeyBase,
    mailer: dependencies.mailer,
    ...(dependencies.passkeyScripts ? { passkeyScripts: dependencies.passkeyScripts } : {}),
    ...(dependencies.tokenMailTransaction
      ? { tokenMailTransaction: dependencies.tokenMailTransaction }
      : {}),
    trackedSessions: dependencies.trackedSessions,
    overHttps,
    ...(dependencies.clock ? { clock: dependencies.clock } : {}),
    ...(dependencies.rateLimiter ? { rateLimiter: dependencies.rateLimiter } : {}),
    ...(dependencies.passwords ? { passwords: dependencies.passwords } : {}),
    jwtIssuer: appJwtIssuer(config, dependencies.jwtKeys, dependencies.clock),
    ...(dependencies.breachedPasswords
      ? { breachedPasswords: dependencies.breachedPasswords }
      : {}),
    ...(dependencies.outbound ? { outbound: dependencies.outbound } : {}),
    ...(dependencies.captchaFetch ? { captchaFetch: dependencies.captchaFetch } : {}),
  });
  const { users, bearer } = accounts;
  // Security headers go on every answer, the host and cross-site refusals and CORS preflights
  // included.
  app.use(securityHeaders({ https: overHttps }));
  // In production a request for another host reaches no route (DNS rebinding, forged links).
  if (config.production) app.use(hostCheck({ allowedHosts: config.allowedHosts }));
  // CORS and the cross-site check for the JSON and GraphQL APIs, whose refusal is the JSON
  // envelope. Pages check for themselves and refuse with a page; webhooks are proven by their
  // signatures.
  const apiCrossSite = crossSiteProtection({ allowedOrigins: config.allowedOrigins });
  app.use("/api/*", apiCrossSite);
  app.use("/graphql", apiCrossSite);
  // A static JSON answer: liveness checks, and the baseline of the bearer benchmark.
  // Made with the security headers (jsonAnswer), so the header middleware leaves it unread.
  // Registered before clientAddress, which it does not need: Hono runs no middleware added
  // after the handler that answers.
  app.get("/api/health", () => jsonAnswer({ status: "ok" }));
  app.use(
    clientAddress({
      trustProxy: config.trustProxy,
      getConnInfo: dependencies.getConnInfo ?? nodeConnInfo,
    }),
  );
  const records: RecordWiring = {
    database,
    storage: dependencies.storage,
    users,
    bearer,
    sessions: accounts.sessions,
    allowedOrigins: config.allowedOrigins,
    ...(dependencies.clock ? { clock: dependencies.clock } : {}),
    ...(dependencies.loadGraphqlCompiler
      ? { loadGraphqlCompiler: dependencies.loadGraphqlCompiler }
      : {}),
    ...(dependencies.outbound ? { outbound: dependencies.outbound } : {}),
  };
  // Each route says what it needs: pages open the cookie session themselves (pageSafety), so
  // webhook senders and API clients never pay for a cookie they do not send, in any order.
  // Routes a person's browser or client reads answer in their language; webhook senders are
  // programs that read only the status.
  const inTheirLanguage = localeNegotiation({ catalogs: SHIPPED_CATALOGS });
  // Replays from the JSON route and the page count together, at their own limit.
  const replayRateLimiter =
    dependencies.rateLimiter ??
    createRateLimiter({
      store: new SqlRateLimitStore(database),
      limit: WEBHOOK_REPLAY_RATE_LIMIT.limit,
      windowMs: WEBHOOK_REPLAY_RATE_LIMIT.windowMs,
      ...(dependencies.clock ? { clock: dependencies.clock } : {}),
    });
  const webhooks = dependencies.outbound;
  const endpointRateLimiter =
    dependencies.rateLimiter ??
    createRateLimiter({
      store: new SqlRateLimitStore(database),
      limit: WEBHOOK_ENDPOINT_RATE_LIMIT.limit,
      windowMs: WEBHOOK_ENDPOINT_RATE_LIMIT.windowMs,
      ...(dependencies.clock ? { clock: dependencies.clock } : {}),
    });
  const endpointRoutes = (owner: EndpointOwnerResolver, basePath?: string) =>
    webhooks
      ? outboundRoutes({
          webhooks,
          owner,
          eventTypes: appEventTypes,
          replayRateLimiter,
          rateLimiter: endpointRateLimiter,
          basePath,
        })
      : [];
  const organizations = appOrganizationStore(database);
  const organizationEndpointOwner = organizationOwner({
    organizations,
    authenticate: organizationCallers({
      organizations,
      authenticate: bearerAuthentication(bearer),
      clock: dependencies.clock,
    }),
  });
  // The webhooks page of an owner's endpoints at `path` (default /account/webhooks).
  const sessionUser = sessionAuthentication((id) => users.findById(id));
  const endpointPages = (owner: EndpointOwnerResolver<HtmlRouteContext>, path?: string) =>
    webhooks
      ? outboundPages({
          webhooks,
          owner,
          path,
          signedIn: sessionUser,
          eventTypes: appEventTypes,
          layout: renderLayout,
          replayRateLimiter,
          sessions: accounts.sessions,
          allowedOrigins: config.allowedOrigins,
          ...(dependencies.clock ? { clock: dependencies.clock } : {}),
        })
      : [];
  const outboundApi = webhooks
    ? [
        webhookEventTypesRoute(appEventTypes),
        ...endpointRoutes(userEndpointOwner(bearerAuthentication(bearer))),
        // An organization's endpoints, for its members and keys with webhooks:manage: its
        // projects' events.
        ...endpointRoutes(organizationEndpointOwner, "/api/orgs/:slug"),
      ]
    : [];
  mount(app, [
    ...webhookRoutes(database, config),
    // The public keys of EdDSA/ES256 tokens, for other services to verify them.
    ...(dependencies.jwtKeys ? [jwksRoute(dependencies.jwtKeys)] : []),
    ...withMiddleware(
      [
        ...renderJobRoutes(dependencies.renderJobs, bearer, config),
        ...recordApiRoutes(records),
        ...outboundApi,
        ...appOrganizationRoutes({
          database,
          config,
          bearer,
          mailer: dependencies.mailer,
          outbound: dependencies.outbound,
          rateLimiter: dependencies.rateLimiter,
          clock: dependencies.clock,
          audit: accounts.audit,
        }),
        // Every page's header lists the user's organizations (its JSON routes pass through).
        ...withOrganizationSwitcher(
          [
            ...accounts.routes,
            ...recordPageRoutes(records),
            ...appOrganizationPages({
              database,
              config,
              users,
              sessions: accounts.sessions,
              mailer: dependencies.mailer,
              rateLimiter: dependencies.rateLimiter,
              clock: dependencies.clock,
              audit: accounts.audit,
              outbound: dependencies.outbound,
            }),
            ...endpointPages(userEndpointOwner(sessionUser)),
            // An organization's, for its members whose role has webhooks:manage (others: a 403
            // page naming it; a non-member: the 404 page).
            ...endpointPages(
              organizationOwner({ organizations, authenticate: sessionUser }),
              "/orgs/:slug/webhooks",
            ),
          ],
          { database, config, sessions: accounts.sessions },
        ),
      ],
      inTheirLanguage,
    ),
  ]);
  // The OpenAPI document of every JSON route mounted here, built once by its first request
  // rather than at start (every route is mounted by then); public, like the routes' shapes.
  mount(
    app,
    lazyRoutes([{ method: "GET", path: OPENAPI_PATH }], async () => {
      const { appApiDocument } = await import("./openapi.js");
      const document = appApiDocument(app.routes);
      return [{ method: "GET", path: OPENAPI_PATH, handle: async () => jsonAnswer(document) }];
    }),
  );
  // Made in the client's language, with its language headers.
  app.notFound((context) => notFound(chooseLocale(context.req.raw)));
  app.onError(answerUnhandledError);
  return { findUser: (id) => users.findById(id), sessions: accounts.sessions };
}
