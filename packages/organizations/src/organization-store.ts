import type {
  Invitation,
  Member,
  Organization,
  OrganizationKey,
  OrganizationWithRole,
} from "./organization.js";

/** What a new organization is made of: its creator becomes its first owner. */
export interface NewOrganization {
  readonly name: string;
  readonly slug: string;
  readonly ownerId: number;
  readonly now: number;
}

/** What {@link OrganizationStore.updateOrganization} may change. */
export interface OrganizationChange {
  readonly name?: string | undefined;
  readonly slug?: string | undefined;
}

/** An invitation to write: the token itself is never stored, only its digest. */
export interface NewInvitation {
  readonly organizationId: number;
  readonly email: string;
  readonly role: string;
  readonly invitedBy: number;
  readonly tokenDigest: string;
  readonly expiresAt: number;
  readonly now: number;
}

/** An organization key to write: its secret is never stored, only `digest` (its SHA-256). */
export interface NewOrganizationKey {
  readonly organizationId: number;
  /** Already checked and trimmed. */
  readonly name: string;
  readonly role: string;
  readonly digest: string;
  readonly createdBy: number;
  readonly now: number;
}

/** A key found by its digest, with the organization it acts for. */
export interface OrganizationKeyHolder {
  readonly key: OrganizationKey;
  readonly organization: Organization;
}

/** Why a member's role change or removal did not happen. */
export type MemberChangeRefusal = "not_found" | "last_owner";

/** What accepting an invitation did. */
export type InvitationAcceptance =
  | { readonly ok: true; readonly organization: Organization; readonly role: string }
  | { readonly ok: false; readonly reason: "not_found" | "email_mismatch" };

/**
 * Organizations, their members, their invitations and their keys. Every lookup a request makes for an
 * organization goes through {@link findMembership}: the organization and the user's role in one
 * query, nothing for a non-member, so its existence is not revealed.
 */
export interface OrganizationStore {
  /**
   * Creates the organization and its creator's `owner` membership together; undefined when
   * the slug is taken (also by a concurrent create).
   */
  createOrganization(input: NewOrganization): Promise<Organization | undefined>;
  /** The organization called `slug` with `userId`'s role in it, or undefined for a non-member. */
  findMembership(slug: string, userId: number): Promise<OrganizationWithRole | undefined>;
  /** The user's organizations with their role, by name. */
  listForUser(userId: number): Promise<OrganizationWithRole[]>;
  /** Changes the name or slug; `slug_taken` when another organization has the new slug. */
  updateOrganization(
    id: number,
    change: OrganizationChange,
  ): Promise<Organization | "slug_taken" | undefined>;
  /** Deletes the organization with its memberships and invitations; false when it is gone. */
  deleteOrganization(id: number): Promise<boolean>;
  /** The members with their email and name, by the time they joined. */
  listMembers(organizationId: number): Promise<Member[]>;
  /**
   * Gives a member another role, in one statement that refuses (`last_owner`) to leave the
   * organization without an `owner`, however many changes run at once.
   */
  changeRole(
    organizationId: number,
    userId: number,
    role: string,
  ): Promise<Member | MemberChangeRefusal>;
  /** Removes a member (or lets them leave), with the same last-owner rule as {@link changeRole}. */
  removeMember(organizationId: number, userId: number): Promise<true | MemberChangeRefusal>;
  /** Stores an invitation. */
  createInvitation(invitation: NewInvitation): Promise<Invitation>;
  /** The invitations still pending (neither accepted, revoked nor expired at `now`), newest first. */
  listInvitations(organizationId: number, now: number): Promise<Invitation[]>;
  /** Revokes a pending invitation of the organization; false when there is none by that id. */
  revokeInvitation(organizationId: number, id: number, now: number): Promise<boolean>;
  /**
   * Accepts the pending invitation whose token has `tokenDigest` for the user with `email`:
   * one atomic use (a second acceptance, also a concurrent one, finds nothing), and the
   * membership written with it (a member already keeps their role). `email_mismatch` leaves
   * the invitation pending.
   */
  acceptInvitation(
    tokenDigest: string,
    user: { readonly id: number; readonly email: string },
    now: number,
  ): Promise<InvitationAcceptance>;
  /** The pending invitation whose token has `tokenDigest`, with its organization, for its page. */
  findInvitation(
    tokenDigest: string,
    now: number,
  ): Promise<{ readonly invitation: Invitation; readonly organization: Organization } | undefined>;
  /** Stores a key of the organization; the digest is unique. */
  createKey(key: NewOrganizationKey): Promise<OrganizationKey>;
  /** The organization's keys, newest first. */
  listKeys(organizationId: number): Promise<OrganizationKey[]>;
  /**
   * Deletes key `id` only if it is the organization's (both in the one statement); false when
   * it has no such key, so another organization's key is answered like a missing one.
   */
  deleteKey(organizationId: number, id: number): Promise<boolean>;
  /** The key with this digest and its organization, in one lookup; never a secret compared. */
  findKeyHolder(digest: string): Promise<OrganizationKeyHolder | undefined>;
  /**
   * Sets the key's `last_used_at` to `usedAt` when it is null or at or before `staleAt`, in one
   * conditional update; whether it wrote. `staleAt` an hour before `usedAt` writes hourly.
   */
  touchKey(id: number, usedAt: number, staleAt: number): Promise<boolean>;
}
