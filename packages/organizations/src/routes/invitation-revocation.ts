import type { AuditTrail } from "@tessera/accounts";
import { type Clock, systemClock } from "@tessera/core";
import { pathId } from "@tessera/http";
import type { Organization } from "../organization.js";
import type { OrganizationStore } from "../organization-store.js";
import { type AuditedRequest, recordOrganizationEvent } from "./organization-audit.js";

/**
 * Revokes the pending invitation `idText` (a path's `id`) of `organization` for `actorId`,
 * recorded as `organization.invitation_revoked`: its link stops working. False when the
 * organization has no such pending invitation. The JSON route and the page revoke alike.
 */
export function invitationRevoker(options: {
  readonly organizations: OrganizationStore;
  readonly audit?: AuditTrail | undefined;
  readonly clock?: Clock | undefined;
}) {
  const clock = options.clock ?? systemClock;
  return async (
    organization: Organization,
    actorId: number,
    idText: string | undefined,
    at: AuditedRequest,
  ): Promise<boolean> => {
    const id = pathId(idText);
    if (id === undefined) return false;
    if (!(await options.organizations.revokeInvitation(organization.id, id, clock()))) return false;
    await recordOrganizationEvent(
      options.audit,
      "organization.invitation_revoked",
      actorId,
      at,
      organization,
      { details: { invitation_id: id } },
    );
    return true;
  };
}
