import { type Migration, portableDdl } from "@tessera/sql";

/**
 * Creates the tables of `@tessera/organizations`: `organizations`, `organization_members` and
 * `organization_invitations` (the README describes them). Times are epoch milliseconds. It
 * refers to `users` (`@tessera/accounts`' `0001_tessera_users`), so it runs after it: a user's
 * deletion takes their memberships and the invitations they sent; an organization's deletion
 * takes its memberships and invitations.
 */
export const organizationsMigration: Migration = {
  id: "0018_tessera_organizations",
  // AUTOINCREMENT: an organization's id owns rows in other tables without a foreign key
  // (webhook endpoints, records), so a deleted organization's id is never given out again.
  sql: portableDdl(`CREATE TABLE organizations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  slug TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);
CREATE TABLE organization_members (
  organization_id INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  joined_at INTEGER NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX organization_members_user ON organization_members (user_id);
CREATE TABLE organization_invitations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  role TEXT NOT NULL,
  invited_by INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_digest TEXT NOT NULL UNIQUE,
  expires_at INTEGER NOT NULL,
  accepted_at INTEGER,
  acceptance_id TEXT,
  revoked_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX organization_invitations_organization
  ON organization_invitations (organization_id, created_at);
CREATE INDEX organization_invitations_invited_by ON organization_invitations (invited_by)`),
};

/**
 * Creates `organization_keys`: an organization's API keys, by the SHA-256 digest of their secret
 * (never the secret). A key goes with its organization; the member who made it may be deleted
 * and the key stays the organization's (`created_by` becomes null).
 */
export const organizationKeysMigration: Migration = {
  id: "0025_tessera_organization_keys",
  sql: portableDdl(`CREATE TABLE organization_keys (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  role TEXT NOT NULL,
  digest TEXT NOT NULL UNIQUE,
  created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
  last_used_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX organization_keys_organization ON organization_keys (organization_id, id);
CREATE INDEX organization_keys_created_by ON organization_keys (created_by)`),
};

/** The tables of `@tessera/organizations`, in order: apply them after the accounts' ones. */
export const organizationMigrations: readonly Migration[] = [
  organizationsMigration,
  organizationKeysMigration,
];
