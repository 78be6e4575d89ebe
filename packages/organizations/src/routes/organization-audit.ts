import type { AuditTrail } from "@tessera/accounts";
import type { Organization } from "../organization.js";

/**
 * The organization events the audit trail records (with `audit` given to the routes and pages),
 * each once, after the change it names was made.
 */
export const ORGANIZATION_AUDIT_EVENT_TYPES = [
  "organization.created",
  "organization.deleted",
  "organization.member_added",
  "organization.member_removed",
  "organization.role_changed",
  "organization.invitation_created",
  "organization.invitation_revoked",
  "organization.key_created",
  "organization.key_deleted",
] as const;

/** One of {@link ORGANIZATION_AUDIT_EVENT_TYPES}. */
export type OrganizationAuditEventType = (typeof ORGANIZATION_AUDIT_EVENT_TYPES)[number];

/** The request a change was made by: the trail reads its address and `User-Agent`. */
export interface AuditedRequest {
  readonly request: Request;
  /** The client's address as the routes read it (`TRUST_PROXY` applied). */
  readonly clientAddress: string;
}

/** What one organization event says beyond its type, subject and organization. */
export interface OrganizationAuditRecord {
  /** Who made the change when it was not the subject (an owner removing a member). */
  readonly actorId?: number | null | undefined;
  /** More details, never a secret: the invitation's token never is one of them. */
  readonly details?: Readonly<Record<string, string | number | null>> | undefined;
}

/**
 * Records `type` about `userId` in `audit` (nothing without one), with the organization's id
 * and slug in its details: the one way every organization change reaches the trail.
 */
export async function recordOrganizationEvent(
  audit: AuditTrail | undefined,
  type: OrganizationAuditEventType,
  userId: number,
  at: AuditedRequest,
  organization: Organization,
  record: OrganizationAuditRecord = {},
): Promise<void> {
  if (!audit) return;
  await audit.record(type, userId, at, {
    actorId: record.actorId ?? null,
    details: {
      organization_id: organization.id,
      organization_slug: organization.slug,
      ...record.details,
    },
  });
}
