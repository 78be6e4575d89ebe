import { randomToken } from "@tessera/crypto";
import { isUniqueViolation, type SqlDatabase, type SqlValue } from "@tessera/sql";
import type {
  Invitation,
  Member,
  Organization,
  OrganizationKey,
  OrganizationWithRole,
} from "../organization.js";
import type {
  InvitationAcceptance,
  MemberChangeRefusal,
  NewInvitation,
  NewOrganization,
  NewOrganizationKey,
  OrganizationChange,
  OrganizationKeyHolder,
  OrganizationStore,
} from "../organization-store.js";
import { OWNER_ROLE } from "../roles.js";
import {
  DELETE_KEY,
  INSERT_KEY,
  KEY_HOLDER,
  KEYS_OF_ORGANIZATION,
  nullableNumber,
  type OrganizationKeyHolderRow,
  type OrganizationKeyRow,
  organizationKeyHolderOf,
  organizationKeyOf,
  TOUCH_KEY,
} from "./organization-key-rows.js";

/** Options of {@link SqlOrganizationStore}. */
export interface SqlOrganizationStoreOptions {
  /**
   * The column of `users` that holds a person's name (the example app's `name`), shown in the
   * members list. Without it every member's name is null: accounts' `users` has no such column.
   */
  readonly memberNameColumn?: string | undefined;
}

const COLUMN_NAME = /^[a-z][a-z0-9_]*$/;

interface OrganizationRow {
  id: number | string;
  name: string;
  slug: string;
  created_at: number | string;
}

interface MembershipRow extends OrganizationRow {
  role: string;
}

interface MemberRow {
  user_id: number | string;
  email: string;
  name: SqlValue | undefined;
  role: string;
  joined_at: number | string;
}

interface InvitationRow {
  id: number | string;
  organization_id: number | string;
  email: string;
  role: string;
  invited_by: number | string;
  expires_at: number | string;
  accepted_at: number | string | null;
  revoked_at: number | string | null;
  created_at: number | string;
}

const ORGANIZATION = "o.id, o.name, o.slug, o.created_at";
const INVITATION = `id, organization_id, email, role, invited_by, expires_at, accepted_at,
  revoked_at, created_at`;
/** An invitation still to be used at the time bound last: neither accepted, revoked nor expired. */
const PENDING = "accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?";

const INSERT_ORGANIZATION = "INSERT INTO organizations (name, slug, created_at) VALUES (?, ?, ?)";
// By the slug, not the new id: D1 runs a transaction's writes as one batch and tells nothing
// between them, and the slug is unique.
const INSERT_OWNER = `INSERT INTO organization_members (organization_id, user_id, role, joined_at)
SELECT id, ?, ?, ? FROM organizations WHERE slug = ?`;
const MEMBERSHIP = `SELECT ${ORGANIZATION}, m.role
FROM organizations o JOIN organization_members m ON m.organization_id = o.id
WHERE o.slug = ? AND m.user_id = ?`;
const MEMBERSHIPS_OF_USER = `SELECT ${ORGANIZATION}, m.role
FROM organization_members m JOIN organizations o ON o.id = m.organization_id
WHERE m.user_id = ? ORDER BY lower(o.name), o.id`;

// The owner guard: the row is not an owner's, or another owner stays. One statement, so on
// SQLite (D1 too) the count and the write hold the one write lock together; on PostgreSQL the
// organization's row lock makes the statements of one organization take turns (see `#guarded`).
const KEEPS_AN_OWNER = `(role <> ? OR (SELECT COUNT(*) FROM organization_members owners
  WHERE owners.organization_id = ? AND owners.role = ?) > 1)`;
const SET_ROLE =
  "UPDATE organization_members SET role = ? WHERE organization_id = ? AND user_id = ?";
const SET_ROLE_KEEPING_AN_OWNER = `${SET_ROLE} AND ${KEEPS_AN_OWNER}`;
const REMOVE_KEEPING_AN_OWNER = `DELETE FROM organization_members
WHERE organization_id = ? AND user_id = ? AND ${KEEPS_AN_OWNER}`;
// NO KEY UPDATE: it queues the owner guards of one organization, yet lets a membership be
// inserted meanwhile (the foreign key's check takes a KEY SHARE lock, which it does not block).
const LOCK_ORGANIZATION = "SELECT id FROM organizations WHERE id = ? FOR NO KEY UPDATE";
const MEMBER_ROLE =
  "SELECT role FROM organization_members WHERE organization_id = ? AND user_id = ?";

// The acceptance writes a random id of its own with the use: D1 cannot say inside its batch
// whether the conditional UPDATE matched, so the call reads back afterwards whether the
// invitation carries its id, which only the one acceptance that used it does.
const USE_INVITATION = `UPDATE organization_invitations SET accepted_at = ?, acceptance_id = ?
WHERE token_digest = ? AND email = ? AND ${PENDING}`;
const JOIN_BY_INVITATION = `INSERT INTO organization_members (organization_id, user_id, role, joined_at)
SELECT organization_id, ?, role, ? FROM organization_invitations
WHERE token_digest = ? AND acceptance_id = ?
ON CONFLICT (organization_id, user_id) DO NOTHING`;
const ACCEPTED = `SELECT ${ORGANIZATION}, COALESCE(m.role, i.role) AS role
FROM organization_invitations i JOIN organizations o ON o.id = i.organization_id
  LEFT JOIN organization_members m ON m.organization_id = i.organization_id AND m.user_id = ?
WHERE i.token_digest = ? AND i.acceptance_id = ?`;
const PENDING_INVITATION = `SELECT ${INVITATION} FROM organization_invitations
WHERE token_digest = ? AND ${PENDING}`;

/**
 * The {@link OrganizationStore} on a {@link SqlDatabase} that has run `organizationMigrations`
 * (after accounts' `users`), on SQLite (better-sqlite3, node:sqlite, bun, D1) and PostgreSQL
 * (pg, PGlite, postgres.js). A new organization's owner must be a row of `users`.
 * @throws {RangeError} from the constructor for a `memberNameColumn` that is not a column name.
 */
export class SqlOrganizationStore implements OrganizationStore {
  readonly #members: string;

  constructor(
    private readonly database: SqlDatabase,
    options: SqlOrganizationStoreOptions = {},
  ) {
    const column = options.memberNameColumn;
    if (column !== undefined && !COLUMN_NAME.test(column)) {
      throw new RangeError(`invalid column name ${column}`);
    }
    this.#members = `SELECT m.user_id, u.email, ${column === undefined ? "NULL" : `u.${column}`} AS name,
  m.role, m.joined_at
FROM organization_members m JOIN users u ON u.id = m.user_id
WHERE m.organization_id = ?`;
  }

  async createOrganization(input: NewOrganization): Promise<Organization | undefined> {
    try {
      await this.database.transaction(async (transaction) => {
        await transaction.run(INSERT_ORGANIZATION, [input.name, input.slug, input.now]);
        await transaction.run(INSERT_OWNER, [input.ownerId, OWNER_ROLE, input.now, input.slug]);
      });
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
    // Read once committed (D1 reads nothing of a transaction inside it). Only its owner can
    // have renamed or deleted it since, which a request that has not answered yet cannot do.
    const created = await this.database.get<MembershipRow>(MEMBERSHIP, [input.slug, input.ownerId]);
    if (!created) throw new Error(`organization ${input.slug} changed before it was read back`);
    return organizationOf(created);
  }

  async findMembership(slug: string, userId: number): Promise<OrganizationWithRole | undefined> {
    const row = await this.database.get<MembershipRow>(MEMBERSHIP, [slug, userId]);
    return row && membershipOf(row);
  }

  async listForUser(userId: number): Promise<OrganizationWithRole[]> {
    const rows = await this.database.all<MembershipRow>(MEMBERSHIPS_OF_USER, [userId]);
    return rows.map(membershipOf);
  }

  async updateOrganization(
    id: number,
    change: OrganizationChange,
  ): Promise<Organization | "slug_taken" | undefined> {
    const sets: string[] = [];
    const values: SqlValue[] = [];
    if (change.name !== undefined) {
      sets.push("name = ?");
      values.push(change.name);
    }
    if (change.slug !== undefined) {
      sets.push("slug = ?");
      values.push(change.slug);
    }
    if (sets.length === 0) {
      const row = await this.database.get<OrganizationRow>(
        `SELECT ${ORGANIZATION} FROM organizations o WHERE o.id = ?`,
        [id],
      );
      return row && organizationOf(row);
    }
    try {
      const row = await this.database.get<OrganizationRow>(
        `UPDATE organizations SET ${sets.join(", ")} WHERE id = ?
RETURNING id, name, slug, created_at`,
        [...values, id],
      );
      return row && organizationOf(row);
    } catch (error) {
      if (isUniqueViolation(error)) return "slug_taken";
      throw error;
    }
  }

  async deleteOrganization(id: number): Promise<boolean> {
    // Memberships and invitations go by the foreign keys' cascade; D1 counts them in `changes`.
    const { changes } = await this.database.run("DELETE FROM organizations WHERE id = ?", [id]);
    return changes > 0;
  }

  async listMembers(organizationId: number): Promise<Member[]> {
    const rows = await this.database.all<MemberRow>(
      `${this.#members} ORDER BY m.joined_at, m.user_id`,
      [organizationId],
    );
    return rows.map(memberOf);
  }

  async changeRole(
    organizationId: number,
    userId: number,
    role: string,
  ): Promise<Member | MemberChangeRefusal> {
    // Making someone an owner never leaves the organization without one.
    const changed =
      role === OWNER_ROLE
        ? await this.#guarded(organizationId, userId, SET_ROLE, [role, organizationId, userId])
        : await this.#guarded(organizationId, userId, SET_ROLE_KEEPING_AN_OWNER, [
            role,
            organizationId,
            userId,
            OWNER_ROLE,
            organizationId,
            OWNER_ROLE,
          ]);
    if (changed !== true) return changed;
    const row = await this.database.get<MemberRow>(`${this.#members} AND m.user_id = ?`, [
      organizationId,
      userId,
    ]);
    return row ? memberOf(row) : "not_found";
  }

  async removeMember(organizationId: number, userId: number): Promise<true | MemberChangeRefusal> {
    return this.#guarded(organizationId, userId, REMOVE_KEEPING_AN_OWNER, [
      organizationId,
      userId,
      OWNER_ROLE,
      organizationId,
      OWNER_ROLE,
    ]);
  }

  /**
   * Runs a write of one membership that carries the owner guard, and says why it wrote nothing.
   * PostgreSQL's READ COMMITTED would let two statements demoting two owners each count both:
   * the organization's row lock queues them, and each then counts what the one before left.
   */
  async #guarded(
    organizationId: number,
    userId: number,
    write: string,
    params: readonly SqlValue[],
  ): Promise<true | MemberChangeRefusal> {
    const attempt = async (database: SqlDatabase): Promise<true | MemberChangeRefusal> => {
      if ((await database.run(write, params)).changes > 0) return true;
      const member = await database.get<{ role: string }>(MEMBER_ROLE, [organizationId, userId]);
      return member?.role === OWNER_ROLE ? "last_owner" : "not_found";
    };
    if (this.database.dialect === "sqlite") return attempt(this.database);
    return this.database.transaction(async (transaction) => {
      await transaction.get(LOCK_ORGANIZATION, [organizationId]);
      return attempt(transaction);
    });
  }

  async createInvitation(invitation: NewInvitation): Promise<Invitation> {
    const row = await this.database.get<InvitationRow>(
      `INSERT INTO organization_invitations
  (organization_id, email, role, invited_by, token_digest, expires_at, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${INVITATION}`,
      [
        invitation.organizationId,
        invitation.email,
        invitation.role,
        invitation.invitedBy,
        invitation.tokenDigest,
        invitation.expiresAt,
        invitation.now,
      ],
    );
    if (!row) throw new Error("the invitation's INSERT returned no row");
    return invitationOf(row);
  }

  async listInvitations(organizationId: number, now: number): Promise<Invitation[]> {
    const rows = await this.database.all<InvitationRow>(
      `SELECT ${INVITATION} FROM organization_invitations WHERE organization_id = ? AND ${PENDING}
ORDER BY created_at DESC, id DESC`,
      [organizationId, now],
    );
    return rows.map(invitationOf);
  }

  async revokeInvitation(organizationId: number, id: number, now: number): Promise<boolean> {
    const { changes } = await this.database.run(
      `UPDATE organization_invitations SET revoked_at = ?
WHERE organization_id = ? AND id = ? AND ${PENDING}`,
      [now, organizationId, id, now],
    );
    return changes === 1;
  }

  async acceptInvitation(
    tokenDigest: string,
    user: { readonly id: number; readonly email: string },
    now: number,
  ): Promise<InvitationAcceptance> {
    const acceptanceId = randomToken();
    await this.database.transaction(async (transaction) => {
      await transaction.run(USE_INVITATION, [now, acceptanceId, tokenDigest, user.email, now]);
      await transaction.run(JOIN_BY_INVITATION, [user.id, now, tokenDigest, acceptanceId]);
    });
    const accepted = await this.database.get<MembershipRow>(ACCEPTED, [
      user.id,
      tokenDigest,
      acceptanceId,
    ]);
    if (accepted) return { ok: true, organization: organizationOf(accepted), role: accepted.role };
    // Not used by this call: pending for another address, or nothing to use.
    const pending = await this.database.get<InvitationRow>(PENDING_INVITATION, [tokenDigest, now]);
    return {
      ok: false,
      reason: pending && pending.email !== user.email ? "email_mismatch" : "not_found",
    };
  }

  async findInvitation(
    tokenDigest: string,
    now: number,
  ): Promise<{ readonly invitation: Invitation; readonly organization: Organization } | undefined> {
    const row = await this.database.get<
      InvitationRow & { o_name: string; o_slug: string; o_created_at: number | string }
    >(
      `SELECT i.id, i.organization_id, i.email, i.role, i.invited_by, i.expires_at, i.accepted_at,
  i.revoked_at, i.created_at, o.name AS o_name, o.slug AS o_slug, o.created_at AS o_created_at
FROM organization_invitations i JOIN organizations o ON o.id = i.organization_id
WHERE i.token_digest = ? AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > ?`,
      [tokenDigest, now],
    );
    if (!row) return undefined;
    return {
      invitation: invitationOf(row),
      organization: organizationOf({
        id: row.organization_id,
        name: row.o_name,
        slug: row.o_slug,
        created_at: row.o_created_at,
      }),
    };
  }

  async createKey(key: NewOrganizationKey): Promise<OrganizationKey> {
    const row = await this.database.get<OrganizationKeyRow>(INSERT_KEY, [
      key.organizationId,
      key.name,
      key.role,
      key.digest,
      key.createdBy,
      key.now,
    ]);
    if (!row) throw new Error("the key's INSERT returned no row");
    return organizationKeyOf(row);
  }

  async listKeys(organizationId: number): Promise<OrganizationKey[]> {
    const rows = await this.database.all<OrganizationKeyRow>(KEYS_OF_ORGANIZATION, [
      organizationId,
    ]);
    return rows.map(organizationKeyOf);
  }

  async deleteKey(organizationId: number, id: number): Promise<boolean> {
    const { changes } = await this.database.run(DELETE_KEY, [organizationId, id]);
    return changes === 1;
  }

  async findKeyHolder(digest: string): Promise<OrganizationKeyHolder | undefined> {
    const row = await this.database.get<OrganizationKeyHolderRow>(KEY_HOLDER, [digest]);
    return row && organizationKeyHolderOf(row);
  }

  async touchKey(id: number, usedAt: number, staleAt: number): Promise<boolean> {
    const { changes } = await this.database.run(TOUCH_KEY, [usedAt, id, staleAt]);
    return changes === 1;
  }
}

function organizationOf(row: OrganizationRow): Organization {
  return {
    id: Number(row.id),
    name: row.name,
    slug: row.slug,
    createdAt: Number(row.created_at),
  };
}

function membershipOf(row: MembershipRow): OrganizationWithRole {
  return { organization: organizationOf(row), role: row.role };
}

function memberOf(row: MemberRow): Member {
  return {
    userId: Number(row.user_id),
    email: row.email,
    name: row.name === null || row.name === undefined ? null : String(row.name),
    role: row.role,
    joinedAt: Number(row.joined_at),
  };
}

function invitationOf(row: InvitationRow): Invitation {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    email: row.email,
    role: row.role,
    invitedBy: Number(row.invited_by),
    expiresAt: Number(row.expires_at),
    acceptedAt: nullableNumber(row.accepted_at),
    revokedAt: nullableNumber(row.revoked_at),
    createdAt: Number(row.created_at),
  };
}
