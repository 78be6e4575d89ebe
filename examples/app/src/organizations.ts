import type { AuditTrail, User, UserStore } from "@tessera/accounts";
import { type BearerAuthenticator, bearerAuthentication } from "@tessera/bearer";
import type { Clock, Locale } from "@tessera/core";
import {
  checkCrossSiteRequest,
  composeMiddleware,
  type Route,
  type RouteMiddleware,
  withMiddleware,
} from "@tessera/http";
import type { Mailer } from "@tessera/mail";
import type { Organization } from "@tessera/organizations";
import {
  invitationPages,
  ORGANIZATION_WRITE_RATE_LIMIT,
  organizationEndpointOwnerId,
  organizationPages,
  organizationRoutes,
  organizationSwitcher,
} from "@tessera/organizations/routes";
import { SqlOrganizationStore } from "@tessera/organizations/sql";
import type { OutboundWebhooks } from "@tessera/outbound";
import { outboundMessages } from "@tessera/outbound/routes";
import { createRateLimiter, type RateLimiter } from "@tessera/ratelimit";
import { SqlRateLimitStore } from "@tessera/ratelimit/sql";
import {
  type MaybeSessionContext,
  openSession,
  type SessionCookies,
  type SessionRouteContext,
  sessionAuthentication,
} from "@tessera/session";
import type { SqlDatabase } from "@tessera/sql";
import { appMessages } from "./app-messages.js";
import type { AppConfig } from "./config.js";
import { renderLayout } from "./views/layout.js";

/** What the app's organization routes are built from. */
export interface OrganizationWiring {
  readonly database: SqlDatabase;
  readonly config: AppConfig;
  readonly bearer: BearerAuthenticator<User>;
  /** The app's mailer (the outbox): invitations go through it. */
  readonly mailer: Mailer | undefined;
  /** The outbound webhooks: a deleted organization's endpoints and messages go with it. */
  readonly outbound?: OutboundWebhooks<SqlDatabase> | undefined;
  /** Counts the writes; default the SQL counters at the routes' own limit. */
  readonly rateLimiter?: RateLimiter | undefined;
  readonly clock?: Clock | undefined;
  /** The accounts' audit trail: every membership change is recorded there too. */
  readonly audit?: AuditTrail | undefined;
}

/** The app's organizations, on its database; members' names come from the app's `users.name`. */
export function appOrganizationStore(database: SqlDatabase): SqlOrganizationStore {
  return new SqlOrganizationStore(database, { memberNameColumn: "name" });
}

/**
 * The bearer JSON routes of organizations, their members and invitations (docs/routes.md),
 * on the app's database. Without a mailer
 * (production without MAIL_ADAPTER) there are none: an invitation could not be sent.
 */
export function appOrganizationRoutes(wiring: OrganizationWiring): Route[] {
  const { database, config, mailer } = wiring;
  if (!mailer) return [];
  return organizationRoutes({
    organizations: appOrganizationStore(database),
    authenticate: bearerAuthentication(wiring.bearer),
    mailer,
    appUrl: config.appUrl,
    allowedOrigins: config.allowedOrigins,
    clock: wiring.clock,
    rateLimiter: writeRateLimiter(wiring),
    audit: wiring.audit,
    beforeOrganizationDeleted: deletingWhatItOwns(wiring.outbound),
  });
}

/**
 * What goes with a deleted organization besides its own rows, from the JSON route and the page
 * alike: its projects go by their foreign key; its endpoints live in the outbound store.
 */
function deletingWhatItOwns(outbound: OutboundWebhooks<SqlDatabase> | undefined) {
  return async (organization: Organization): Promise<void> => {
    await outbound?.deleteOwner(organizationEndpointOwnerId(organization.id));
  };
}

/** The organization writes' counters: the given ones, else the SQL counters at their limit. */
function writeRateLimiter(wiring: {
  readonly database: SqlDatabase;
  readonly rateLimiter?: RateLimiter | undefined;
  readonly clock?: Clock | undefined;
}): RateLimiter {
  return (
    wiring.rateLimiter ??
    createRateLimiter({
      store: new SqlRateLimitStore(wiring.database),
      limit: ORGANIZATION_WRITE_RATE_LIMIT.limit,
      windowMs: ORGANIZATION_WRITE_RATE_LIMIT.windowMs,
      ...(wiring.clock ? { clock: wiring.clock } : {}),
    })
  );
}

/** What the organization pages are built from. */
export interface OrganizationPageWiring {
  readonly database: SqlDatabase;
  readonly config: AppConfig;
  readonly users: UserStore;
  /** The cookie sessions of the account pages: a visitor signs in there and comes back. */
  readonly sessions: SessionCookies;
  /** The app's mailer (the outbox): without one there are no pages, as no invitation goes out. */
  readonly mailer: Mailer | undefined;
  /** Counts the writes with the JSON routes'; default the SQL counters at their limit. */
  readonly rateLimiter?: RateLimiter | undefined;
  readonly clock?: Clock | undefined;
  /** The accounts' audit trail: the pages' changes are recorded as the JSON routes' are. */
  readonly audit?: AuditTrail | undefined;
  /**
   * The outbound webhooks: an organization deleted from its page takes its endpoints along, and
   * its page links its webhooks page.
   */
  readonly outbound?: OutboundWebhooks<SqlDatabase> | undefined;
}

/**
 * The organization pages: `/orgs` (list, create), `/orgs/{slug}` (members, invitations,
 * rename, leave, delete, and links to its projects and webhooks) and
 * `GET|POST /invitations/{token}`, the page an invitation mail links to, where the signed-in
 * user accepts it (a visitor signs in or up first, and comes back) and lands on the
 * organization list. Each has the organization switcher in its header
 * ({@link withOrganizationSwitcher}).
 */
export function appOrganizationPages(wiring: OrganizationPageWiring): Route<MaybeSessionContext>[] {
  const { mailer } = wiring;
  if (!mailer) return [];
  const organizations = appOrganizationStore(wiring.database);
  const shared = {
    organizations,
    authenticate: sessionAuthentication((id) => wiring.users.findById(id)),
    layout: renderLayout,
    sessions: wiring.sessions,
    allowedOrigins: wiring.config.allowedOrigins,
    clock: wiring.clock,
    audit: wiring.audit,
  };
  const pages = [
    ...organizationPages({
      ...shared,
      mailer,
      appUrl: wiring.config.appUrl,
      rateLimiter: writeRateLimiter(wiring),
      recordLinks: [
        { table: "projects", label: (locale) => appMessages.text(locale, "app.projects") },
        // Its webhooks page (service.ts), served with the outbound webhooks.
        ...(wiring.outbound
          ? [
              {
                table: "webhooks",
                permission: "webhooks:manage",
                label: (locale: Locale | undefined) =>
                  outboundMessages.text(locale, "outbound.page_title"),
              },
            ]
          : []),
      ],
      beforeOrganizationDeleted: deletingWhatItOwns(wiring.outbound),
    }),
    ...invitationPages({ ...shared, acceptedPath: "/orgs" }),
  ];
  return withOrganizationSwitcher(pages, wiring);
}

/** What {@link withOrganizationSwitcher} reads: the database and the pages' cookie session. */
export interface OrganizationSwitcherWiring {
  readonly database: SqlDatabase;
  readonly config: Pick<AppConfig, "allowedOrigins">;
  /** The cookie sessions the pages open: the switcher opens the same one, which they reuse. */
  readonly sessions: SessionCookies;
}

/**
 * `pages` with the organization switcher in the header of each signed-in page: the user's
 * organizations, read at the request with one indexed query (`organizationSwitcher`), the one
 * the page is under marked. The routes' cookie session is opened here, before them, and they
 * reuse it (one read, one write). Left as they are: a route under `/api/` (so a list that mixes
 * JSON routes and pages can be given), and a cross-site write, which the page refuses before any
 * cookie is read. A visitor's page costs no query. Wrapping a page twice reads it once.
 */
export function withOrganizationSwitcher(
  pages: readonly Route<MaybeSessionContext>[],
  wiring: OrganizationSwitcherWiring,
): Route<MaybeSessionContext>[] {
  const withMenus = composeMiddleware(
    openSession<MaybeSessionContext>(wiring.sessions),
    organizationSwitcher<MaybeSessionContext & SessionRouteContext>({
      organizations: appOrganizationStore(wiring.database),
    }),
  );
  const crossSite = { allowedOrigins: wiring.config.allowedOrigins };
  const switcher: RouteMiddleware<MaybeSessionContext> = (next, route) => {
    if (route.path.startsWith("/api/")) return next;
    const withSwitcher = withMenus(next, route);
    return (request, context) =>
      checkCrossSiteRequest(request, crossSite).ok
        ? withSwitcher(request, context)
        : next(request, context);
  };
  return withMiddleware(pages, switcher);
}
