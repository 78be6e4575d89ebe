import { pathId } from "@tessera/http";
import type { Member, Organization } from "../organization.js";
import type { OrganizationStore } from "../organization-store.js";
import type { Roles } from "../roles.js";

/** Why a member cannot be acted on: none with that id, or one whose role may do more. */
export type ActionableMemberRefusal =
  | { readonly reason: "not_found" }
  | { readonly reason: "role_not_grantable"; readonly role: string };

/**
 * The member `userIdText` (a path's `user_id`) names in `organization`, when a member of
 * `actorRole` may change or remove them: a role may not act on one that may do more than it
 * (an admin never demotes or removes an owner). The JSON routes and the pages ask the same.
 */
export async function actionableMember(
  store: OrganizationStore,
  roles: Roles,
  organization: Organization,
  actorRole: string,
  userIdText: string | undefined,
): Promise<
  | { readonly ok: true; readonly member: Member }
  | ({ readonly ok: false } & ActionableMemberRefusal)
> {
  const userId = pathId(userIdText);
  if (userId === undefined) return { ok: false, reason: "not_found" };
  const members = await store.listMembers(organization.id);
  const found = members.find((member) => member.userId === userId);
  if (!found) return { ok: false, reason: "not_found" };
  if (!roles.grantableBy(found.role, actorRole)) {
    return { ok: false, reason: "role_not_grantable", role: found.role };
  }
  return { ok: true, member: found };
}
