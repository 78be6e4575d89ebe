// Add organizations: users work together in an organization, each with a role; they join by an
// invitation mailed to them, and the organization owns its projects.
import type { AccountRoutes } from "@tessera/accounts";
import type { SqlAccountStores } from "@tessera/accounts/sql";
import { bearerAuthentication } from "@tessera/bearer";
import { defineModel } from "@tessera/fields";
import { plainLayout } from "@tessera/http";
import type { Mailer } from "@tessera/mail";
import {
  invitationPages,
  ORGANIZATION_WRITE_RATE_LIMIT,
  organizationRecords,
  organizationRoutes,
} from "@tessera/organizations/routes";
import { organizationMigrations, SqlOrganizationStore } from "@tessera/organizations/sql";
import { createRateLimiter } from "@tessera/ratelimit";
import { jsonRecordRoutes } from "@tessera/records";
import { recordMigration, SqlRecordStore } from "@tessera/records/sql";
import { sessionAuthentication } from "@tessera/session";
import type { SqlDatabase } from "@tessera/sql";

/**
 * An organization's model: its table has `organization_id` and `created_by` (the member who
 * made the row), and its JSON routes are `/api/orgs/{slug}/projects`.
 */
export const projectModel = defineModel("project", ["name:string", "status:enum:active,archived"], {
  owner: "organization",
});

/**
 * The tables of organizations and of their projects: apply them after the accounts' migrations
 * (both refer to `users`).
 */
export const organizationMigrationsWithProjects = [
  ...organizationMigrations,
  recordMigration(projectModel, "0100_create_projects"),
];

/** What the organizations are built from: the app's database, accounts and mailer. */
export interface OrganizationWiring {
  readonly database: SqlDatabase;
  readonly accounts: AccountRoutes;
  readonly stores: SqlAccountStores;
  /** Sends the invitations; awaited, so a mail that cannot be handed over is a 503. */
  readonly mailer: Mailer;
  /** The app's public address (`APP_URL`), the invitation link's origin. */
  readonly appUrl?: string | undefined;
}

/**
 * The store of organizations, for routes of your own (`organizationMember` of
 * `@tessera/organizations/routes`), and the routes: organizations, their members and
 * invitations as bearer JSON (`/api/orgs…`, `/api/invitations/{token}/accept`), the page the
 * invitation mail links to (`/invitations/{token}`, on the account pages' cookie session), and
 * the organization's projects (`/api/orgs/{slug}/projects`) for its members, as their role allows.
 */
export function appOrganizations(wiring: OrganizationWiring) {
  const { database, accounts, stores } = wiring;
  const store = new SqlOrganizationStore(database);
  const bearer = bearerAuthentication(accounts.bearer);
  const routes = [
    ...organizationRoutes({
      organizations: store,
      authenticate: bearer,
      mailer: wiring.mailer,
      appUrl: wiring.appUrl,
      // 30 writes a minute per user, counted in the accounts' rate-limit table.
      rateLimiter: createRateLimiter({
        store: stores.rateLimits,
        limit: ORGANIZATION_WRITE_RATE_LIMIT.limit,
        windowMs: ORGANIZATION_WRITE_RATE_LIMIT.windowMs,
      }),
    }),
    ...invitationPages({
      organizations: store,
      authenticate: sessionAuthentication((id) => stores.users.findById(id)),
      layout: plainLayout,
      sessions: accounts.sessions,
      acceptedPath: "/account",
    }),
    // The projects' rows go with their organization (the foreign key cascades).
    ...jsonRecordRoutes({
      model: projectModel,
      store: new SqlRecordStore(database, projectModel),
      authenticate: bearer,
      scope: organizationRecords({ organizations: store }),
    }),
  ];
  return { store, routes };
}
