import type { AuditTrail } from "@tessera/accounts";
import type { Clock } from "@tessera/core";
import type { AttemptCounter, Authenticate, RouteContext } from "@tessera/http";
import type { Mailer } from "@tessera/mail";
import type { Organization } from "../organization.js";
import type { OrganizationStore } from "../organization-store.js";
import type { Roles } from "../roles.js";
import type { OrganizationUser } from "./organization-context.js";

/** How long an invitation can be accepted: 7 days. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The rate limit of the organization routes that change something (invitations, which send
 * mail, included), per signed-in user: the settings to build the `rateLimiter` with.
 */
export const ORGANIZATION_WRITE_RATE_LIMIT = {
  group: "organization_writes",
  limit: 30,
  windowMs: 60_000,
};

/** What the organization routes are built from. */
export interface OrganizationRoutesOptions<C extends RouteContext = RouteContext> {
  readonly organizations: OrganizationStore;
  /** The app's roles; default `defineRoles()`, the built-in ones. */
  readonly roles?: Roles | undefined;
  /** Who a request acts for: the bearer authentication of accounts (a 401 refuses). */
  readonly authenticate: Authenticate<{ readonly user: OrganizationUser }, C>;
  /** Sends the invitation mails; awaited, so a mail that cannot be handed over is a 503. */
  readonly mailer: Mailer;
  /**
   * The app's public address (`APP_URL`): an invitation's link points to the request's origin
   * only when it is this one's or one of `allowedOrigins`, else to this one, so a forged `Host`
   * never gets into a mail. Without it (development), only a loopback or listed origin is used.
   */
  readonly appUrl?: string | undefined;
  /** The other origins the app is served at (`ALLOWED_ORIGINS`). */
  readonly allowedOrigins?: readonly string[] | undefined;
  readonly clock?: Clock | undefined;
  /**
   * Counts every write per user (`user:<id>`) in {@link ORGANIZATION_WRITE_RATE_LIMIT}'s
   * group, at its own limit; none, nothing is counted.
   */
  readonly rateLimiter?: AttemptCounter | undefined;
  /** How long an invitation can be accepted; default {@link INVITATION_LIFETIME_MS}. */
  readonly invitationLifetimeMs?: number | undefined;
  /**
   * Deletes what the app keeps for the organization (its records, API keys, webhook
   * endpoints). Awaited before the organization's own rows go, so that a throw (the request
   * fails) leaves the organization in place to delete again, never rows of an organization that
   * is gone; it can run twice for one organization (two deletes at once): make it idempotent.
   */
  readonly beforeOrganizationDeleted?:
    | ((organization: Organization) => Promise<void> | void)
    | undefined;
  /** Told of an invitation mail that could not be handed over; default one line on stderr. */
  readonly reportMailError?: ((error: unknown) => void) | undefined;
  /**
   * The app's audit trail (`auditTrail(log)` of @tessera/accounts): with it, every change of an
   * organization, its members and its invitations is recorded once, after it was made
   * (`organization.created`, `organization.member_added`…; see `ORGANIZATION_AUDIT_EVENT_TYPES`).
   */
  readonly audit?: AuditTrail | undefined;
}
