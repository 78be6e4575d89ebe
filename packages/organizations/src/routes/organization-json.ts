import { formatTimestamp } from "@tessera/core";
import type { Invitation, Member, Organization, OrganizationKey } from "../organization.js";

/** An organization as the JSON API shows it, without anyone's role. */
export function organizationJson(organization: Organization) {
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    created_at: formatTimestamp(organization.createdAt),
  };
}

/** An organization as one member sees it: with their `role`. */
export function organizationWithRoleJson(organization: Organization, role: string) {
  const { created_at, ...rest } = organizationJson(organization);
  return { ...rest, role, created_at };
}

/** A member as the members list shows them. */
export function memberJson(member: Member) {
  return {
    user_id: member.userId,
    email: member.email,
    name: member.name,
    role: member.role,
    joined_at: formatTimestamp(member.joinedAt),
  };
}

/** An invitation as the JSON API shows it: never its token, which only its mail holds. */
export function invitationJson(invitation: Invitation) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    expires_at: formatTimestamp(invitation.expiresAt),
    created_at: formatTimestamp(invitation.createdAt),
  };
}

/** An organization's key as the JSON API shows it: never its secret, nor its digest. */
export function organizationKeyJson(key: OrganizationKey) {
  return {
    id: key.id,
    name: key.name,
    role: key.role,
    created_by: key.createdBy,
    last_used_at: key.lastUsedAt === null ? null : formatTimestamp(key.lastUsedAt),
    created_at: formatTimestamp(key.createdAt),
  };
}
