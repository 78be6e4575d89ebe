import type {
  Invitation,
  Member,
  Organization,
  OrganizationKey,
  OrganizationWithRole,
} from "./organization.js";
import type {
  InvitationAcceptance,
  MemberChangeRefusal,
  NewInvitation,
  NewOrganization,
  NewOrganizationKey,
  OrganizationChange,
  OrganizationKeyHolder,
  OrganizationStore,
} from "./organization-store.js";
import { OWNER_ROLE } from "./roles.js";

/** What the members list shows of a user: the memory store asks the app for it. */
export interface MemberProfile {
  readonly email: string;
  readonly name: string | null;
}

interface Membership {
  role: string;
  readonly joinedAt: number;
}

interface StoredInvitation extends Invitation {
  readonly tokenDigest: string;
}

interface StoredKey extends OrganizationKey {
  readonly digest: string;
}

/**
 * Organizations in this process's memory: for tests, prototypes and one process, with the SQL
 * store's rules. It keeps no users: `users` finds a member's email and name (a member it finds
 * none for is left out of the list, as the SQL store's join leaves out a deleted user), and a
 * user's deletion does not take their memberships.
 */
export class MemoryOrganizationStore implements OrganizationStore {
  readonly #organizations = new Map<number, Organization>();
  /** Organization id → user id → membership. */
  readonly #members = new Map<number, Map<number, Membership>>();
  readonly #invitations = new Map<number, StoredInvitation>();
  readonly #keys = new Map<number, StoredKey>();
  #nextOrganizationId = 1;
  #nextInvitationId = 1;
  #nextKeyId = 1;

  constructor(private readonly users: (userId: number) => MemberProfile | undefined) {}

  async createOrganization(input: NewOrganization): Promise<Organization | undefined> {
    if (this.#bySlug(input.slug)) return undefined;
    const organization: Organization = {
      id: this.#nextOrganizationId++,
      name: input.name,
      slug: input.slug,
      createdAt: input.now,
    };
    this.#organizations.set(organization.id, organization);
    this.#members.set(
      organization.id,
      new Map([[input.ownerId, { role: OWNER_ROLE, joinedAt: input.now }]]),
    );
    return { ...organization };
  }

  async findMembership(slug: string, userId: number): Promise<OrganizationWithRole | undefined> {
    const organization = this.#bySlug(slug);
    const membership = organization && this.#members.get(organization.id)?.get(userId);
    return membership && { organization: { ...organization }, role: membership.role };
  }

  async listForUser(userId: number): Promise<OrganizationWithRole[]> {
    const found: OrganizationWithRole[] = [];
    for (const [id, members] of this.#members) {
      const membership = members.get(userId);
      const organization = this.#organizations.get(id);
      if (membership && organization) {
        found.push({ organization: { ...organization }, role: membership.role });
      }
    }
    return found.sort(
      (a, b) =>
        compareText(a.organization.name.toLowerCase(), b.organization.name.toLowerCase()) ||
        a.organization.id - b.organization.id,
    );
  }

  async updateOrganization(
    id: number,
    change: OrganizationChange,
  ): Promise<Organization | "slug_taken" | undefined> {
    const organization = this.#organizations.get(id);
    if (!organization) return undefined;
    if (change.slug !== undefined && this.#bySlug(change.slug, id)) return "slug_taken";
    const changed: Organization = {
      ...organization,
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.slug === undefined ? {} : { slug: change.slug }),
    };
    this.#organizations.set(id, changed);
    return { ...changed };
  }

  async deleteOrganization(id: number): Promise<boolean> {
    if (!this.#organizations.delete(id)) return false;
    this.#members.delete(id);
    for (const [invitationId, invitation] of this.#invitations) {
      if (invitation.organizationId === id) this.#invitations.delete(invitationId);
    }
    for (const [keyId, key] of this.#keys) {
      if (key.organizationId === id) this.#keys.delete(keyId);
    }
    return true;
  }

  async listMembers(organizationId: number): Promise<Member[]> {
    const listed: Member[] = [];
    for (const userId of this.#members.get(organizationId)?.keys() ?? []) {
      const member = this.#member(organizationId, userId);
      if (member) listed.push(member);
    }
    return listed.sort((a, b) => a.joinedAt - b.joinedAt || a.userId - b.userId);
  }

  async changeRole(
    organizationId: number,
    userId: number,
    role: string,
  ): Promise<Member | MemberChangeRefusal> {
    const membership = this.#members.get(organizationId)?.get(userId);
    if (!membership || !this.users(userId)) return "not_found";
    if (role !== OWNER_ROLE && this.#isLastOwner(organizationId, userId)) return "last_owner";
    membership.role = role;
    return this.#member(organizationId, userId) ?? "not_found";
  }

  async removeMember(organizationId: number, userId: number): Promise<true | MemberChangeRefusal> {
    const members = this.#members.get(organizationId);
    if (!members?.has(userId)) return "not_found";
    if (this.#isLastOwner(organizationId, userId)) return "last_owner";
    members.delete(userId);
    return true;
  }

  async createInvitation(invitation: NewInvitation): Promise<Invitation> {
    // As the SQL store's foreign key and unique index refuse them.
    if (!this.#organizations.has(invitation.organizationId)) {
      throw new Error(`no organization ${invitation.organizationId}`);
    }
    for (const stored of this.#invitations.values()) {
      if (stored.tokenDigest === invitation.tokenDigest) {
        throw new Error("an invitation with this token digest exists");
      }
    }
    const stored: StoredInvitation = {
      id: this.#nextInvitationId++,
      organizationId: invitation.organizationId,
      email: invitation.email,
      role: invitation.role,
      invitedBy: invitation.invitedBy,
      tokenDigest: invitation.tokenDigest,
      expiresAt: invitation.expiresAt,
      acceptedAt: null,
      revokedAt: null,
      createdAt: invitation.now,
    };
    this.#invitations.set(stored.id, stored);
    return invitationOf(stored);
  }

  async listInvitations(organizationId: number, now: number): Promise<Invitation[]> {
    return [...this.#invitations.values()]
      .filter((invitation) => invitation.organizationId === organizationId)
      .filter((invitation) => isPending(invitation, now))
      .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
      .map(invitationOf);
  }

  async revokeInvitation(organizationId: number, id: number, now: number): Promise<boolean> {
    const invitation = this.#invitations.get(id);
    if (!invitation || invitation.organizationId !== organizationId) return false;
    if (!isPending(invitation, now)) return false;
    this.#invitations.set(id, { ...invitation, revokedAt: now });
    return true;
  }

  async acceptInvitation(
    tokenDigest: string,
    user: { readonly id: number; readonly email: string },
    now: number,
  ): Promise<InvitationAcceptance> {
    const invitation = this.#pendingInvitation(tokenDigest, now);
    const organization = invitation && this.#organizations.get(invitation.organizationId);
    if (!invitation || !organization) return { ok: false, reason: "not_found" };
    if (invitation.email !== user.email) return { ok: false, reason: "email_mismatch" };
    this.#invitations.set(invitation.id, { ...invitation, acceptedAt: now });
    const members = this.#members.get(organization.id) ?? new Map<number, Membership>();
    this.#members.set(organization.id, members);
    // A member already keeps their role.
    const membership = members.get(user.id) ?? { role: invitation.role, joinedAt: now };
    members.set(user.id, membership);
    return { ok: true, organization: { ...organization }, role: membership.role };
  }

  async findInvitation(
    tokenDigest: string,
    now: number,
  ): Promise<{ readonly invitation: Invitation; readonly organization: Organization } | undefined> {
    const invitation = this.#pendingInvitation(tokenDigest, now);
    const organization = invitation && this.#organizations.get(invitation.organizationId);
    return (
      organization && { invitation: invitationOf(invitation), organization: { ...organization } }
    );
  }

  async createKey(key: NewOrganizationKey): Promise<OrganizationKey> {
    if (!this.#organizations.has(key.organizationId)) {
      throw new Error(`no organization ${key.organizationId}`);
    }
    for (const stored of this.#keys.values()) {
      if (stored.digest === key.digest) throw new Error("a key with this digest exists");
    }
    const stored: StoredKey = {
      id: this.#nextKeyId++,
      organizationId: key.organizationId,
      name: key.name,
      role: key.role,
      digest: key.digest,
      createdBy: key.createdBy,
      lastUsedAt: null,
      createdAt: key.now,
    };
    this.#keys.set(stored.id, stored);
    return keyOf(stored);
  }

  async listKeys(organizationId: number): Promise<OrganizationKey[]> {
    return [...this.#keys.values()]
      .filter((key) => key.organizationId === organizationId)
      .sort((a, b) => b.id - a.id)
      .map(keyOf);
  }

  async deleteKey(organizationId: number, id: number): Promise<boolean> {
    if (this.#keys.get(id)?.organizationId !== organizationId) return false;
    return this.#keys.delete(id);
  }

  async findKeyHolder(digest: string): Promise<OrganizationKeyHolder | undefined> {
    for (const key of this.#keys.values()) {
      if (key.digest !== digest) continue;
      const organization = this.#organizations.get(key.organizationId);
      return organization && { key: keyOf(key), organization: { ...organization } };
    }
    return undefined;
  }

  async touchKey(id: number, usedAt: number, staleAt: number): Promise<boolean> {
    const key = this.#keys.get(id);
    if (!key || (key.lastUsedAt !== null && key.lastUsedAt > staleAt)) return false;
    this.#keys.set(id, { ...key, lastUsedAt: usedAt });
    return true;
  }

  #bySlug(slug: string, exceptId?: number): Organization | undefined {
    for (const organization of this.#organizations.values()) {
      if (organization.slug === slug && organization.id !== exceptId) return organization;
    }
    return undefined;
  }

  #isLastOwner(organizationId: number, userId: number): boolean {
    const members = this.#members.get(organizationId);
    if (members?.get(userId)?.role !== OWNER_ROLE) return false;
    return [...members.values()].filter((member) => member.role === OWNER_ROLE).length === 1;
  }

  #member(organizationId: number, userId: number): Member | undefined {
    const membership = this.#members.get(organizationId)?.get(userId);
    const profile = membership && this.users(userId);
    return (
      profile && {
        userId,
        email: profile.email,
        name: profile.name,
        role: membership.role,
        joinedAt: membership.joinedAt,
      }
    );
  }

  #pendingInvitation(tokenDigest: string, now: number): StoredInvitation | undefined {
    for (const invitation of this.#invitations.values()) {
      if (invitation.tokenDigest === tokenDigest) {
        return isPending(invitation, now) ? invitation : undefined;
      }
    }
    return undefined;
  }
}

const isPending = (invitation: Invitation, now: number) =>
  invitation.acceptedAt === null && invitation.revokedAt === null && invitation.expiresAt > now;

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The invitation as the interface shows it: without its token's digest. */
function invitationOf(stored: StoredInvitation): Invitation {
  const { tokenDigest: _digest, ...invitation } = stored;
  return invitation;
}

/** The key as the interface shows it: without its secret's digest. */
function keyOf(stored: StoredKey): OrganizationKey {
  const { digest: _digest, ...key } = stored;
  return key;
}
