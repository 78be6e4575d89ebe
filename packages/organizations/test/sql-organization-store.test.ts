import { SqlOrganizationStore } from "@tessera/organizations/sql";
import type { SqlDatabase } from "@tessera/sql";
import { describe, expect, it } from "vitest";
import { insertUser, postgresSchema, sqliteFile } from "./support/databases.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const DAY = 24 * 60 * 60 * 1000;

/** Each engine: a migrated database, and a way to open another connection (or pool) to it. */
const engines = {
  "SQLite (better-sqlite3 file)": async () => {
    const { database, open } = await sqliteFile();
    return { database, open: (): SqlDatabase => open() };
  },
  "PostgreSQL (pg)": async () => {
    const { database, open } = await postgresSchema();
    return { database, open: (): SqlDatabase => open() };
  },
};

/** An organization owned by Ada on `database`. */
async function acme(store: SqlOrganizationStore, database: SqlDatabase) {
  const ada = await insertUser(database, "ada@example.com", "Ada");
  const organization = await store.createOrganization({
    name: "Acme",
    slug: "acme",
    ownerId: ada,
    now: T0,
  });
  if (!organization) throw new Error("not created");
  return { ada, organization };
}

for (const [engine, open] of Object.entries(engines)) {
  describe(`SqlOrganizationStore on ${engine}`, () => {
    it("shows no names without a name column, the column's values with one", async () => {
      const { database } = await open();
      const store = new SqlOrganizationStore(database);
      const { organization } = await acme(store, database);
      expect((await store.listMembers(organization.id)).map((member) => member.name)).toEqual([
        null,
      ]);
      const named = new SqlOrganizationStore(database, { memberNameColumn: "name" });
      expect((await named.listMembers(organization.id)).map((member) => member.name)).toEqual([
        "Ada",
      ]);
    });

    it("follows a user's deletion: their memberships and the invitations they sent go", async () => {
      const { database } = await open();
      const store = new SqlOrganizationStore(database);
      const { ada, organization } = await acme(store, database);
      const bob = await insertUser(database, "bob@example.com", null);
      await store.createInvitation({
        organizationId: organization.id,
        email: "bob@example.com",
        role: "owner",
        invitedBy: ada,
        tokenDigest: "b".repeat(64),
        expiresAt: T0 + DAY,
        now: T0,
      });
      await store.acceptInvitation("b".repeat(64), { id: bob, email: "bob@example.com" }, T0);
      await store.createInvitation({
        organizationId: organization.id,
        email: "carol@example.com",
        role: "member",
        invitedBy: bob,
        tokenDigest: "c".repeat(64),
        expiresAt: T0 + DAY,
        now: T0,
      });
      await database.run("DELETE FROM users WHERE id = ?", [bob]);
      expect((await store.listMembers(organization.id)).map((member) => member.userId)).toEqual([
        ada,
      ]);
      expect(await store.listInvitations(organization.id, T0)).toEqual([]);
    });

    it("keeps an organization's key when its maker is deleted, with no maker", async () => {
      const { database } = await open();
      const store = new SqlOrganizationStore(database);
      const { organization } = await acme(store, database);
      const bob = await insertUser(database, "bob@example.com", null);
      const key = await store.createKey({
        organizationId: organization.id,
        name: "CI",
        role: "member",
        digest: "k".repeat(64),
        createdBy: bob,
        now: T0,
      });
      await database.run("DELETE FROM users WHERE id = ?", [bob]);
      expect(await store.findKeyHolder("k".repeat(64))).toEqual({
        key: { ...key, createdBy: null },
        organization,
      });
    });

    it("refuses a new organization whose owner is no user, leaving nothing behind", async () => {
      const { database } = await open();
      const store = new SqlOrganizationStore(database);
      await expect(
        store.createOrganization({ name: "Ghost", slug: "ghost", ownerId: 404, now: T0 }),
      ).rejects.toThrow();
      const ada = await insertUser(database, "ada@example.com", null);
      expect(
        await store.createOrganization({ name: "Ghost", slug: "ghost", ownerId: ada, now: T0 }),
      ).toMatchObject({ slug: "ghost" });
    });

    it("uses an invitation only with its membership: one that cannot be written leaves it pending", async () => {
      const { database } = await open();
      const store = new SqlOrganizationStore(database);
      const { ada, organization } = await acme(store, database);
      const invitation = await store.createInvitation({
        organizationId: organization.id,
        email: "gone@example.com",
        role: "member",
        invitedBy: ada,
        tokenDigest: "e".repeat(64),
        expiresAt: T0 + DAY,
        now: T0,
      });
      // No such user: the membership's foreign key refuses it, and the use rolls back with it.
      await expect(
        store.acceptInvitation("e".repeat(64), { id: 404, email: "gone@example.com" }, T0),
      ).rejects.toThrow();
      expect(await store.findInvitation("e".repeat(64), T0)).toEqual({ invitation, organization });
    });

    it("uses an invitation once and keeps an owner across connections racing", async () => {
      const { database, open: another } = await open();
      const stores = [database, another(), another()].map(
        (connection) => new SqlOrganizationStore(connection),
      );
      const [store] = stores as [SqlOrganizationStore];
      const { ada, organization } = await acme(store, database);
      const bob = await insertUser(database, "bob@example.com", null);
      await store.createInvitation({
        organizationId: organization.id,
        email: "bob@example.com",
        role: "owner",
        invitedBy: ada,
        tokenDigest: "d".repeat(64),
        expiresAt: T0 + DAY,
        now: T0,
      });
      const accepted = await Promise.all(
        [...stores, ...stores].map((each) =>
          each.acceptInvitation("d".repeat(64), { id: bob, email: "bob@example.com" }, T0 + 1),
        ),
      );
      expect(accepted.filter((outcome) => outcome.ok)).toHaveLength(1);
      // Ada and Bob own it: each connection tries to demote one of them.
      const demoted = await Promise.all(
        stores.flatMap((each) => [
          each.changeRole(organization.id, ada, "admin"),
          each.removeMember(organization.id, bob),
        ]),
      );
      expect(demoted.filter((outcome) => outcome === "last_owner").length).toBeGreaterThan(0);
      const owners = (await store.listMembers(organization.id)).filter(
        (member) => member.role === "owner",
      );
      expect(owners).toHaveLength(1);
    });
  });
}

describe("SqlOrganizationStore options", () => {
  it("refuses a name column that is not a plain column name", async () => {
    const { database } = await sqliteFile();
    for (const memberNameColumn of ["name; DROP TABLE users", "Name", "1name", ""]) {
      expect(() => new SqlOrganizationStore(database, { memberNameColumn })).toThrow(RangeError);
    }
  });
});
