import type { AuditTrail, User, UserStore } from "@tessera/accounts";
import { type BearerAuthenticator, bearerAuthentication } from "@tessera/bearer";
import type { Clock } from "@tessera/core";
import type { Route } from "@tessera/http";
import type { Mailer } from "@tessera/mail";
import {
  invitationPages,
  ORGANIZATION_WRITE_RATE_LIMIT,
  organizationEndpointOwnerId,
  organizationPages,
  organizationRoutes,
} from "@tessera/organizations/routes";
import { SqlOrganizationStore } from "@tessera/organizations/sql";
import type { OutboundWebhooks } from "@tessera/outbound";
import { createRateLimiter, type RateLimiter } from "@tessera/ratelimit";
import { SqlRateLimitStore } from "@tessera/ratelimit/sql";
import {
  type MaybeSessionContext,
  type SessionCookies,
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
    // Its projects go with it by their foreign key; its endpoints live in the outbound store.
    beforeOrganizationDeleted: async (organization) => {
      await wiring.outbound?.deleteOwner(organizationEndpointOwnerId(organization.id));
    },
  });
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
}

/**
 * The organization pages: `/orgs` (list, create), `/orgs/{slug}` (members, invitations,
 * leave, and a link to its projects) and `GET|POST /invitations/{token}`, the page an invitation mail links to, where the
 * signed-in user accepts it (a visitor signs in or up first, and comes back) and lands on the
 * organization list.
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
  return [
    ...organizationPages({
      ...shared,
      mailer,
      appUrl: wiring.config.appUrl,
      rateLimiter: writeRateLimiter(wiring),
      recordLinks: [
        { table: "projects", label: (locale) => appMessages.text(locale, "app.projects") },
      ],
    }),
    ...invitationPages({ ...shared, acceptedPath: "/orgs" }),
  ];
}
