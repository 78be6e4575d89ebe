import type { AuditTrail } from "@tessera/accounts";
import type { Organization } from "../organization.js";
import type { OrganizationStore } from "../organization-store.js";
import { type AuditedRequest, recordOrganizationEvent } from "./organization-audit.js";

/** What deleting an organization needs: the store, the app's own deletion, the audit trail. */
export interface OrganizationDeletionOptions {
  readonly organizations: OrganizationStore;
  /** The app's rows of the organization: see `OrganizationRoutesOptions.beforeOrganizationDeleted`. */
  readonly beforeOrganizationDeleted?:
    | ((organization: Organization) => Promise<void> | void)
    | undefined;
  readonly audit?: AuditTrail | undefined;
}

/**
 * Deletes organizations the one way the JSON route and the page share: the app's
 * `beforeOrganizationDeleted` first (should it throw, the organization stays, to be deleted
 * again, rather than leave rows nobody can reach), then the organization with its members and
 * invitations, recorded in `audit` as `organization.deleted` about `actorId`. False when it was
 * gone already (another delete first): nothing is recorded. The permission check comes before,
 * in the caller.
 */
export function organizationDeleter(options: OrganizationDeletionOptions) {
  return async (
    organization: Organization,
    actorId: number,
    at: AuditedRequest,
  ): Promise<boolean> => {
    await options.beforeOrganizationDeleted?.(organization);
    if (!(await options.organizations.deleteOrganization(organization.id))) return false;
    await recordOrganizationEvent(options.audit, "organization.deleted", actorId, at, organization);
    return true;
  };
}
