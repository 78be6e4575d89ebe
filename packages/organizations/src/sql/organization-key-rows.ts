import type { OrganizationKey } from "../organization.js";
import type { OrganizationKeyHolder } from "../organization-store.js";

/** A row of `organization_keys` as the statements below select it. */
export interface OrganizationKeyRow {
  id: number | string;
  organization_id: number | string;
  name: string;
  role: string;
  created_by: number | string | null;
  last_used_at: number | string | null;
  created_at: number | string;
}

/** A key's row joined with its organization's (`o_`-prefixed). */
export interface OrganizationKeyHolderRow extends OrganizationKeyRow {
  o_name: string;
  o_slug: string;
  o_created_at: number | string;
}

const KEY = "id, organization_id, name, role, created_by, last_used_at, created_at";

/** Stores a key, returning it: organization, name, role, digest, maker, time. */
export const INSERT_KEY = `INSERT INTO organization_keys
  (organization_id, name, role, digest, created_by, created_at)
VALUES (?, ?, ?, ?, ?, ?) RETURNING ${KEY}`;

/** An organization's keys, newest first. */
export const KEYS_OF_ORGANIZATION = `SELECT ${KEY} FROM organization_keys
WHERE organization_id = ? ORDER BY id DESC`;

/** Deletes a key only if it is the organization's: organization, id. */
export const DELETE_KEY = "DELETE FROM organization_keys WHERE organization_id = ? AND id = ?";

/** The key with a digest and its organization, in one statement: digest. */
export const KEY_HOLDER = `SELECT k.id, k.organization_id, k.name, k.role, k.created_by,
  k.last_used_at, k.created_at, o.name AS o_name, o.slug AS o_slug, o.created_at AS o_created_at
FROM organization_keys k JOIN organizations o ON o.id = k.organization_id
WHERE k.digest = ?`;

/** Moves `last_used_at` when it is null or stale: time, id, stale bound. */
export const TOUCH_KEY = `UPDATE organization_keys SET last_used_at = ?
WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)`;

/** A nullable integer column as a number (PostgreSQL's drivers may give BIGINT as text). */
export const nullableNumber = (value: number | string | null) =>
  value === null ? null : Number(value);

/** The key a row holds. */
export function organizationKeyOf(row: OrganizationKeyRow): OrganizationKey {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    name: row.name,
    role: row.role,
    createdBy: nullableNumber(row.created_by),
    lastUsedAt: nullableNumber(row.last_used_at),
    createdAt: Number(row.created_at),
  };
}

/** The key and organization a joined row holds. */
export function organizationKeyHolderOf(row: OrganizationKeyHolderRow): OrganizationKeyHolder {
  return {
    key: organizationKeyOf(row),
    organization: {
      id: Number(row.organization_id),
      name: row.o_name,
      slug: row.o_slug,
      createdAt: Number(row.o_created_at),
    },
  };
}
