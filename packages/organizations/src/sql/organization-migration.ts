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

/** The tables of `@tessera/organizations`, in order: apply them after the accounts' ones. */
export const organizationMigrations: readonly Migration[] = [organizationsMigration];
