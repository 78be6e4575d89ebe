import type { AuditTrail } from "@tessera/accounts";
import { type Clock, systemClock } from "@tessera/core";
import type { InvitationAcceptance, OrganizationStore } from "../organization-store.js";
import { type AuditedRequest, recordOrganizationEvent } from "./organization-audit.js";

/**
 * Accepts invitations the one way the JSON route and the page share: the store's one atomic
 * use of the invitation with the user's (normalized, confirmed) address, then, when it took,
 * `organization.member_added` about the new member in `audit`.
 */
export function invitationAcceptor(options: {
  readonly organizations: OrganizationStore;
  readonly clock?: Clock | undefined;
  readonly audit?: AuditTrail | undefined;
}) {
  const clock = options.clock ?? systemClock;
  return async (
    tokenDigest: string,
    user: { readonly id: number; readonly email: string },
    at: AuditedRequest,
  ): Promise<InvitationAcceptance> => {
    const accepted = await options.organizations.acceptInvitation(tokenDigest, user, clock());
    if (accepted.ok) {
      await recordOrganizationEvent(
        options.audit,
        "organization.member_added",
        user.id,
        at,
        accepted.organization,
        { details: { role: accepted.role } },
      );
    }
    return accepted;
  };
}
