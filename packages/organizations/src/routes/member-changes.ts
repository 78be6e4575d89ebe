import type { AuditTrail } from "@tessera/accounts";
import type { Member, Organization } from "../organization.js";
import type { MemberChangeRefusal, OrganizationStore } from "../organization-store.js";
import { type AuditedRequest, recordOrganizationEvent } from "./organization-audit.js";

/**
 * The changes of a membership, made the one way the JSON routes and the pages share, each
 * recorded in `audit` once it was made: `organization.role_changed` and
 * `organization.member_removed`, about the member, by the actor. The permission checks come
 * before, in the caller.
 */
export function memberChanges(options: {
  readonly organizations: OrganizationStore;
  readonly audit?: AuditTrail | undefined;
}) {
  const store = options.organizations;
  return {
    /** Gives `member` the role `to`; a role that stays the same is not recorded. */
    async changeRole(
      organization: Organization,
      member: Member,
      to: string,
      actorId: number,
      at: AuditedRequest,
    ): Promise<Member | MemberChangeRefusal> {
      const changed = await store.changeRole(organization.id, member.userId, to);
      if (typeof changed !== "string" && member.role !== changed.role) {
        await recordOrganizationEvent(
          options.audit,
          "organization.role_changed",
          member.userId,
          at,
          organization,
          { actorId, details: { from: member.role, to: changed.role } },
        );
      }
      return changed;
    },

    /**
     * Removes `userId` from the organization, or lets them leave (`actorId` their own id: the
     * event then names no actor).
     */
    async remove(
      organization: Organization,
      userId: number,
      actorId: number,
      at: AuditedRequest,
    ): Promise<true | MemberChangeRefusal> {
      const removed = await store.removeMember(organization.id, userId);
      if (removed === true) {
        await recordOrganizationEvent(
          options.audit,
          "organization.member_removed",
          userId,
          at,
          organization,
          { actorId: actorId === userId ? null : actorId },
        );
      }
      return removed;
    },
  };
}
