import type { User } from "@tessera/accounts";
import { type BearerAuthenticator, bearerAuthentication } from "@tessera/bearer";
import type { Clock } from "@tessera/core";
import type { Route } from "@tessera/http";
import type { Mailer } from "@tessera/mail";
import { ORGANIZATION_WRITE_RATE_LIMIT, organizationRoutes } from "@tessera/organizations/routes";
import { SqlOrganizationStore } from "@tessera/organizations/sql";
import { createRateLimiter, type RateLimiter } from "@tessera/ratelimit";
import { SqlRateLimitStore } from "@tessera/ratelimit/sql";
import type { SqlDatabase } from "@tessera/sql";
import type { AppConfig } from "./config.js";

/** What the app's organization routes are built from. */
export interface OrganizationWiring {
  readonly database: SqlDatabase;
  readonly config: AppConfig;
  readonly bearer: BearerAuthenticator<User>;
  /** The app's mailer (the outbox): invitations go through it. */
  readonly mailer: Mailer | undefined;
  /** Counts the writes; default the SQL counters at the routes' own limit. */
  readonly rateLimiter?: RateLimiter | undefined;
  readonly clock?: Clock | undefined;
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
    rateLimiter:
      wiring.rateLimiter ??
      createRateLimiter({
        store: new SqlRateLimitStore(database),
        limit: ORGANIZATION_WRITE_RATE_LIMIT.limit,
        windowMs: ORGANIZATION_WRITE_RATE_LIMIT.windowMs,
        ...(wiring.clock ? { clock: wiring.clock } : {}),
      }),
  });
}
