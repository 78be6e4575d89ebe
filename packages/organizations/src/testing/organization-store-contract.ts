import { describe, expect, it } from "vitest";
import type { Invitation, Organization } from "../organization.js";
import type { OrganizationStore } from "../organization-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const DAY = 24 * 60 * 60 * 1000;

/** A store under test, as the maker of {@link describeOrganizationStoreContract} gives it. */
export interface OrganizationStoreUnderTest {
  /** A fresh, empty store. */
  readonly store: OrganizationStore;
  /**
   * Makes a user (for a SQL store, a row of `users`) and gives their id: the store's members
   * list shows the email and name given here.
   */
  newUser(email: string, name: string | null): Promise<number>;
}

let serial = 0;
/** A name no other case of the run uses, for slugs, addresses and digests. */
const unique = (prefix: string) => `${prefix}-${++serial}-${crypto.randomUUID().slice(0, 8)}`;
const newEmail = () => `${unique("user")}@example.com`;
const newDigest = () => `${crypto.randomUUID().replaceAll("-", "")}${(++serial).toString(16)}`;

/**
 * The behaviour every {@link OrganizationStore} owes: an organization made with its creator as
 * owner (a taken slug refused, concurrent creates included), memberships found only for members,
 * a user's organizations by name, renames and slug changes, deletion with its memberships and
 * invitations, the members list, role changes and removals that never leave an organization
 * without an owner (concurrent ones included), and invitations: pending ones listed newest
 * first, revoked once, found by digest, and accepted once, by the invited address only (concurrent
 * acceptances included), a member keeping their role; and keys, found by digest with their
 * organization, deleted through it only, their last use written at most once per bound, gone
 * with it. Call it at the top of a vitest file; each
 * case gets a new store.
 *
 * @example
 * ```ts
 * import { describeOrganizationStoreContract, MemoryOrganizationStore } from "@tessera/organizations/testing";
 *
 * describeOrganizationStoreContract("memory", async () => {
 *   const users = new Map<number, { email: string; name: string | null }>();
 *   return {
 *     store: new MemoryOrganizationStore((id) => users.get(id)),
 *     newUser: async (email, name) => {
 *       users.set(users.size + 1, { email, name });
 *       return users.size;
 *     },
 *   };
 * });
 * ```
 */
export function describeOrganizationStoreContract(
  name: string,
  makeStore: () => Promise<OrganizationStoreUnderTest>,
) {
  /** A store with an organization, its owner Ada, and ways to add members and invitations. */
  async function withOrganization(organizationName = "Acme") {
    const under = await makeStore();
    const { store, newUser } = under;
    const adaEmail = newEmail();
    const ada = await newUser(adaEmail, "Ada Lovelace");
    const organization = await store.createOrganization({
      name: organizationName,
      slug: unique("acme"),
      ownerId: ada,
      now: T0,
    });
    if (!organization) throw new Error("the organization was not created");
    const invite = (
      email: string,
      change: {
        role?: string | undefined;
        now?: number | undefined;
        expiresAt?: number | undefined;
        organizationId?: number | undefined;
      } = {},
    ) =>
      store.createInvitation({
        organizationId: change.organizationId ?? organization.id,
        email,
        role: change.role ?? "member",
        invitedBy: ada,
        tokenDigest: newDigest(),
        expiresAt: change.expiresAt ?? (change.now ?? T0) + DAY,
        now: change.now ?? T0,
      });
    /** Makes a user and has them join by an invitation; gives their id. */
    const join = async (role: string, now = T0 + 1000, userName: string | null = null) => {
      const email = newEmail();
      const id = await newUser(email, userName);
      const digest = newDigest();
      await store.createInvitation({
        organizationId: organization.id,
        email,
        role,
        invitedBy: ada,
        tokenDigest: digest,
        expiresAt: now + DAY,
        now,
      });
      const accepted = await store.acceptInvitation(digest, { id, email }, now);
      if (!accepted.ok) throw new Error(`the invitation was not accepted: ${accepted.reason}`);
      return id;
    };
    return { ...under, ada, adaEmail, organization, invite, join };
  }

  /** Creates an invitation with a known digest. */
  async function inviteWithDigest(
    store: OrganizationStore,
    organization: Organization,
    invitedBy: number,
    email: string,
    change: {
      role?: string | undefined;
      now?: number | undefined;
      expiresAt?: number | undefined;
    } = {},
  ) {
    const tokenDigest = newDigest();
    const now = change.now ?? T0;
    const invitation = await store.createInvitation({
      organizationId: organization.id,
      email,
      role: change.role ?? "member",
      invitedBy,
      tokenDigest,
      expiresAt: change.expiresAt ?? now + DAY,
      now,
    });
    return { tokenDigest, invitation };
  }

  describe(`OrganizationStore contract: ${name}`, () => {
    it("creates an organization with its creator as its one owner, found only by members", async () => {
      const { store, newUser, ada, adaEmail, organization } = await withOrganization();
      expect(organization).toEqual({
        id: expect.any(Number),
        name: "Acme",
        slug: organization.slug,
        createdAt: T0,
      });
      expect(await store.findMembership(organization.slug, ada)).toEqual({
        organization,
        role: "owner",
      });
      expect(await store.listMembers(organization.id)).toEqual([
        { userId: ada, email: adaEmail, name: "Ada Lovelace", role: "owner", joinedAt: T0 },
      ]);
      const bob = await newUser(newEmail(), null);
      expect(await store.findMembership(organization.slug, bob)).toBeUndefined();
      expect(await store.findMembership("no-such-organization", ada)).toBeUndefined();
    });

    it("refuses a slug that is taken, and makes nothing of the refused create", async () => {
      const { store, newUser, ada, organization } = await withOrganization();
      const bob = await newUser(newEmail(), null);
      expect(
        await store.createOrganization({
          name: "Other",
          slug: organization.slug,
          ownerId: bob,
          now: T0 + 1,
        }),
      ).toBeUndefined();
      expect(await store.listForUser(bob)).toEqual([]);
      expect(await store.findMembership(organization.slug, bob)).toBeUndefined();
      expect(await store.findMembership(organization.slug, ada)).toEqual({
        organization,
        role: "owner",
      });
    });

    it("lets exactly one of concurrent creates of one slug have it", async () => {
      const { store, newUser } = await makeStore();
      const users = await Promise.all(
        Array.from({ length: 8 }, (_, index) => newUser(newEmail(), `User ${index}`)),
      );
      const slug = unique("race");
      const created = await Promise.all(
        users.map((ownerId, index) =>
          store.createOrganization({ name: `Race ${index}`, slug, ownerId, now: T0 }),
        ),
      );
      const winners = created.flatMap((organization, index) =>
        organization ? [{ organization, owner: users[index]! }] : [],
      );
      expect(winners).toHaveLength(1);
      const [winner] = winners;
      const lists = await Promise.all(users.map((user) => store.listForUser(user)));
      expect(lists.flat()).toEqual([{ organization: winner?.organization, role: "owner" }]);
      expect((await store.findMembership(slug, winner!.owner))?.organization.id).toBe(
        winner?.organization.id,
      );
    });

    it("lists a user's organizations by name, with their role in each, and no one else's", async () => {
      const { store, newUser } = await makeStore();
      const adaEmail = newEmail();
      const ada = await newUser(adaEmail, null);
      const bob = await newUser(newEmail(), null);
      const create = async (organizationName: string, ownerId: number) => {
        const made = await store.createOrganization({
          name: organizationName,
          slug: unique("org"),
          ownerId,
          now: T0,
        });
        if (!made) throw new Error("not created");
        return made;
      };
      const beta = await create("beta", ada);
      const acme = await create("Acme", ada);
      const zeta = await create("Zeta", bob);
      await create("Gamma", bob);
      const { tokenDigest } = await inviteWithDigest(store, zeta, bob, adaEmail, {
        role: "viewer",
      });
      expect((await store.acceptInvitation(tokenDigest, { id: ada, email: adaEmail }, T0)).ok).toBe(
        true,
      );
      expect(await store.listForUser(ada)).toEqual([
        { organization: acme, role: "owner" },
        { organization: beta, role: "owner" },
        { organization: zeta, role: "viewer" },
      ]);
      expect(await store.listForUser(await newUser(newEmail(), null))).toEqual([]);
    });

    it("renames an organization and changes its slug, refusing one another has", async () => {
      const { store, newUser, ada, organization } = await withOrganization();
      const otherSlug = unique("other");
      await store.createOrganization({
        name: "Other",
        slug: otherSlug,
        ownerId: await newUser(newEmail(), null),
        now: T0,
      });
      const renamed = await store.updateOrganization(organization.id, { name: "Acme Inc." });
      expect(renamed).toEqual({ ...organization, name: "Acme Inc." });
      const slug = unique("acme-inc");
      expect(await store.updateOrganization(organization.id, { slug })).toEqual({
        ...organization,
        name: "Acme Inc.",
        slug,
      });
      expect(await store.findMembership(organization.slug, ada)).toBeUndefined();
      expect((await store.findMembership(slug, ada))?.organization.slug).toBe(slug);
      // Its own slug again is no conflict; an empty change answers the organization as it is.
      expect(await store.updateOrganization(organization.id, { slug })).toMatchObject({ slug });
      expect(await store.updateOrganization(organization.id, {})).toEqual({
        ...organization,
        name: "Acme Inc.",
        slug,
      });
      // Taken: nothing of the change is made, the name neither.
      expect(
        await store.updateOrganization(organization.id, { name: "Taken", slug: otherSlug }),
      ).toBe("slug_taken");
      expect((await store.findMembership(slug, ada))?.organization.name).toBe("Acme Inc.");
      expect(await store.updateOrganization(organization.id + 1000, { name: "X" })).toBeUndefined();
      expect(await store.updateOrganization(organization.id + 1000, {})).toBeUndefined();
    });

    it("deletes an organization with its memberships and invitations, and no other's", async () => {
      const { store, newUser, ada, organization, invite, join } = await withOrganization();
      const bob = await join("member");
      const carolEmail = newEmail();
      const carol = await newUser(carolEmail, null);
      const { tokenDigest } = await inviteWithDigest(store, organization, ada, carolEmail);
      const other = await store.createOrganization({
        name: "Other",
        slug: unique("other"),
        ownerId: ada,
        now: T0,
      });
      if (!other) throw new Error("not created");
      const kept = await inviteWithDigest(store, other, ada, carolEmail);
      await invite(newEmail());

      expect(await store.deleteOrganization(organization.id)).toBe(true);
      expect(await store.deleteOrganization(organization.id)).toBe(false);
      expect(await store.findMembership(organization.slug, ada)).toBeUndefined();
      expect(await store.findMembership(organization.slug, bob)).toBeUndefined();
      expect(await store.listForUser(ada)).toEqual([{ organization: other, role: "owner" }]);
      expect(await store.listForUser(bob)).toEqual([]);
      expect(await store.listMembers(organization.id)).toEqual([]);
      expect(await store.listInvitations(organization.id, T0)).toEqual([]);
      expect(await store.findInvitation(tokenDigest, T0)).toBeUndefined();
      expect(
        await store.acceptInvitation(tokenDigest, { id: carol, email: carolEmail }, T0),
      ).toEqual({ ok: false, reason: "not_found" });
      expect(await store.findInvitation(kept.tokenDigest, T0)).toEqual({
        invitation: kept.invitation,
        organization: other,
      });
      // The slug is free again.
      expect(
        await store.createOrganization({
          name: "Again",
          slug: organization.slug,
          ownerId: bob,
          now: T0,
        }),
      ).toMatchObject({ slug: organization.slug, name: "Again" });
    });

    it("lists the members by the time they joined, with their email, name and role", async () => {
      const { store, ada, adaEmail, organization, join } = await withOrganization();
      const bob = await join("admin", T0 + 2000, "Bob");
      const carol = await join("member", T0 + 1000, null);
      const members = await store.listMembers(organization.id);
      expect(members.map((member) => [member.userId, member.role, member.joinedAt])).toEqual([
        [ada, "owner", T0],
        [carol, "member", T0 + 1000],
        [bob, "admin", T0 + 2000],
      ]);
      expect(members[0]).toEqual({
        userId: ada,
        email: adaEmail,
        name: "Ada Lovelace",
        role: "owner",
        joinedAt: T0,
      });
      expect(members[1]?.name).toBeNull();
      expect(members[2]?.name).toBe("Bob");
      expect(members[2]?.email).toMatch(/@example\.com$/);
    });

    it("changes a member's role, and finds no one who is not a member", async () => {
      const { store, newUser, organization, join } = await withOrganization();
      const bob = await join("member", T0 + 1000, "Bob");
      const changed = await store.changeRole(organization.id, bob, "admin");
      expect(changed).toEqual({
        userId: bob,
        email: expect.stringMatching(/@example\.com$/),
        name: "Bob",
        role: "admin",
        joinedAt: T0 + 1000,
      });
      expect((await store.findMembership(organization.slug, bob))?.role).toBe("admin");
      // The same role again, and an app's own role.
      expect(await store.changeRole(organization.id, bob, "admin")).toMatchObject({
        role: "admin",
      });
      expect(await store.changeRole(organization.id, bob, "billing")).toMatchObject({
        role: "billing",
      });
      const stranger = await newUser(newEmail(), null);
      expect(await store.changeRole(organization.id, stranger, "admin")).toBe("not_found");
      expect(await store.changeRole(organization.id + 1000, bob, "admin")).toBe("not_found");
      expect(await store.findMembership(organization.slug, stranger)).toBeUndefined();
    });

    it("removes a member, who then finds nothing, and lets a member leave", async () => {
      const { store, newUser, organization, join } = await withOrganization();
      const bob = await join("member");
      const carol = await join("admin");
      expect(await store.removeMember(organization.id, bob)).toBe(true);
      expect(await store.findMembership(organization.slug, bob)).toBeUndefined();
      expect(await store.listForUser(bob)).toEqual([]);
      expect(await store.removeMember(organization.id, bob)).toBe("not_found");
      expect(await store.removeMember(organization.id, carol)).toBe(true);
      expect(await store.removeMember(organization.id, await newUser(newEmail(), null))).toBe(
        "not_found",
      );
      expect(await store.removeMember(organization.id + 1000, carol)).toBe("not_found");
      expect((await store.listMembers(organization.id)).map((member) => member.role)).toEqual([
        "owner",
      ]);
    });

    it("never leaves an organization without an owner", async () => {
      const { store, ada, organization, join } = await withOrganization();
      expect(await store.changeRole(organization.id, ada, "admin")).toBe("last_owner");
      expect(await store.removeMember(organization.id, ada)).toBe("last_owner");
      expect((await store.findMembership(organization.slug, ada))?.role).toBe("owner");
      // An owner may stay one.
      expect(await store.changeRole(organization.id, ada, "owner")).toMatchObject({
        role: "owner",
      });
      const bob = await join("member");
      expect(await store.changeRole(organization.id, bob, "owner")).toMatchObject({
        role: "owner",
      });
      // With two owners, either may go.
      expect(await store.changeRole(organization.id, ada, "admin")).toMatchObject({
        role: "admin",
      });
      expect(await store.removeMember(organization.id, bob)).toBe("last_owner");
      expect(await store.changeRole(organization.id, bob, "viewer")).toBe("last_owner");
      expect(await store.changeRole(organization.id, ada, "owner")).toMatchObject({
        role: "owner",
      });
      expect(await store.removeMember(organization.id, bob)).toBe(true);
      expect(await store.removeMember(organization.id, ada)).toBe("last_owner");
    });

    it("keeps exactly one owner when every owner is demoted or removed at once", async () => {
      const { store, organization, join } = await withOrganization();
      const owners = async () =>
        (await store.listMembers(organization.id))
          .filter((member) => member.role === "owner")
          .map((member) => member.userId);
      for (let round = 0; round < 3; round++) {
        for (let added = 0; added < 3; added++) await join("owner");
        const before = await owners();
        expect(before).toHaveLength(4);
        const outcomes = await Promise.all(
          before.map((userId, index) =>
            index % 2 === 0
              ? store.changeRole(organization.id, userId, "admin")
              : store.removeMember(organization.id, userId),
          ),
        );
        expect(outcomes.filter((outcome) => outcome === "last_owner")).toHaveLength(1);
        expect(await owners()).toHaveLength(1);
      }
    });

    it("stores an invitation and lists the pending ones newest first, of its organization only", async () => {
      const { store, ada, organization, invite, join } = await withOrganization();
      const first = await invite("first@example.com", { now: T0 + 1, role: "admin" });
      expect(first).toEqual({
        id: expect.any(Number),
        organizationId: organization.id,
        email: "first@example.com",
        role: "admin",
        invitedBy: ada,
        expiresAt: T0 + 1 + DAY,
        acceptedAt: null,
        revokedAt: null,
        createdAt: T0 + 1,
      } satisfies Invitation);
      const second = await invite("second@example.com", { now: T0 + 2 });
      const third = await invite("third@example.com", { now: T0 + 3, expiresAt: T0 + 10 * DAY });
      const expiring = await invite("expiring@example.com", { now: T0 + 4, expiresAt: T0 + 1000 });
      const revoked = await invite("revoked@example.com", { now: T0 + 5 });
      expect(await store.revokeInvitation(organization.id, revoked.id, T0 + 6)).toBe(true);
      await join("member", T0 + 7);
      const other = await store.createOrganization({
        name: "Other",
        slug: unique("other"),
        ownerId: ada,
        now: T0,
      });
      await invite("elsewhere@example.com", { now: T0 + 8, organizationId: other?.id ?? 0 });

      const ids = async (now: number) =>
        (await store.listInvitations(organization.id, now)).map((invitation) => invitation.id);
      expect(await ids(T0 + 999)).toEqual([expiring.id, third.id, second.id, first.id]);
      // Expired at its expiry time.
      expect(await ids(T0 + 1000)).toEqual([third.id, second.id, first.id]);
      expect(await store.listInvitations(organization.id, T0 + 1000)).toEqual([
        third,
        second,
        first,
      ]);
      expect(await ids(T0 + 2 * DAY)).toEqual([third.id]);
      expect(await store.listInvitations(organization.id + 1000, T0)).toEqual([]);
    });

    it("revokes a pending invitation once, and only in its organization", async () => {
      const { store, newUser, ada, organization } = await withOrganization();
      const email = newEmail();
      const bob = await newUser(email, null);
      const { tokenDigest, invitation } = await inviteWithDigest(store, organization, ada, email);
      expect(await store.revokeInvitation(organization.id + 1000, invitation.id, T0)).toBe(false);
      expect(await store.findInvitation(tokenDigest, T0)).toBeDefined();
      expect(await store.revokeInvitation(organization.id, invitation.id, T0 + 1)).toBe(true);
      expect(await store.revokeInvitation(organization.id, invitation.id, T0 + 2)).toBe(false);
      expect(await store.revokeInvitation(organization.id, invitation.id + 1000, T0)).toBe(false);
      expect(await store.findInvitation(tokenDigest, T0 + 2)).toBeUndefined();
      expect(await store.acceptInvitation(tokenDigest, { id: bob, email }, T0 + 3)).toEqual({
        ok: false,
        reason: "not_found",
      });
      expect(await store.findMembership(organization.slug, bob)).toBeUndefined();
      // Neither an expired nor an accepted invitation is revoked.
      const expired = await inviteWithDigest(store, organization, ada, newEmail(), {
        expiresAt: T0 + 10,
      });
      expect(await store.revokeInvitation(organization.id, expired.invitation.id, T0 + 10)).toBe(
        false,
      );
      const used = await inviteWithDigest(store, organization, ada, email);
      expect((await store.acceptInvitation(used.tokenDigest, { id: bob, email }, T0 + 4)).ok).toBe(
        true,
      );
      expect(await store.revokeInvitation(organization.id, used.invitation.id, T0 + 5)).toBe(false);
    });

    it("finds a pending invitation and its organization by its token's digest", async () => {
      const { store, ada, organization } = await withOrganization();
      const { tokenDigest, invitation } = await inviteWithDigest(
        store,
        organization,
        ada,
        "bob@example.com",
        { role: "viewer", expiresAt: T0 + 1000 },
      );
      expect(await store.findInvitation(tokenDigest, T0 + 999)).toEqual({
        invitation,
        organization,
      });
      expect(await store.findInvitation(tokenDigest, T0 + 1000)).toBeUndefined();
      expect(await store.findInvitation(newDigest(), T0)).toBeUndefined();
    });

    it("accepts an invitation once: a membership with its role, and the invitation used", async () => {
      const { store, newUser, ada, organization } = await withOrganization();
      const email = newEmail();
      const bob = await newUser(email, "Bob");
      const { tokenDigest } = await inviteWithDigest(store, organization, ada, email, {
        role: "admin",
      });
      expect(await store.acceptInvitation(tokenDigest, { id: bob, email }, T0 + 5)).toEqual({
        ok: true,
        organization,
        role: "admin",
      });
      expect(await store.findMembership(organization.slug, bob)).toEqual({
        organization,
        role: "admin",
      });
      expect((await store.listMembers(organization.id)).at(-1)).toEqual({
        userId: bob,
        email,
        name: "Bob",
        role: "admin",
        joinedAt: T0 + 5,
      });
      expect(await store.acceptInvitation(tokenDigest, { id: bob, email }, T0 + 6)).toEqual({
        ok: false,
        reason: "not_found",
      });
      expect(await store.findInvitation(tokenDigest, T0 + 6)).toBeUndefined();
      expect(await store.listInvitations(organization.id, T0 + 6)).toEqual([]);
    });

    it("refuses an expired or unknown invitation, making no member", async () => {
      const { store, newUser, ada, organization } = await withOrganization();
      const email = newEmail();
      const bob = await newUser(email, null);
      const { tokenDigest } = await inviteWithDigest(store, organization, ada, email, {
        expiresAt: T0 + 1000,
      });
      expect(await store.acceptInvitation(tokenDigest, { id: bob, email }, T0 + 1000)).toEqual({
        ok: false,
        reason: "not_found",
      });
      expect(await store.acceptInvitation(newDigest(), { id: bob, email }, T0)).toEqual({
        ok: false,
        reason: "not_found",
      });
      // Expired, it is no one's: another address learns nothing either.
      const eve = await newUser(newEmail(), null);
      expect(
        await store.acceptInvitation(tokenDigest, { id: eve, email: "eve@example.com" }, T0 + 1000),
      ).toEqual({ ok: false, reason: "not_found" });
      expect(await store.findMembership(organization.slug, bob)).toBeUndefined();
    });

    it("refuses another address without using the invitation", async () => {
      const { store, newUser, ada, organization } = await withOrganization();
      const email = newEmail();
      const bob = await newUser(email, null);
      const eveEmail = newEmail();
      const eve = await newUser(eveEmail, null);
      const { tokenDigest, invitation } = await inviteWithDigest(store, organization, ada, email);
      expect(await store.acceptInvitation(tokenDigest, { id: eve, email: eveEmail }, T0)).toEqual({
        ok: false,
        reason: "email_mismatch",
      });
      // The invited address differs in case only: still another address to the store.
      expect(
        await store.acceptInvitation(tokenDigest, { id: bob, email: email.toUpperCase() }, T0),
      ).toEqual({ ok: false, reason: "email_mismatch" });
      expect(await store.findMembership(organization.slug, eve)).toBeUndefined();
      expect(await store.findInvitation(tokenDigest, T0)).toEqual({ invitation, organization });
      expect((await store.acceptInvitation(tokenDigest, { id: bob, email }, T0 + 1)).ok).toBe(true);
    });

    it("lets a member who accepts another invitation keep their role", async () => {
      const { store, ada, adaEmail, organization, join } = await withOrganization();
      const bob = await join("admin", T0 + 1000, "Bob");
      const bobEmail = (await store.listMembers(organization.id)).find(
        (member) => member.userId === bob,
      )?.email;
      const forBob = await inviteWithDigest(store, organization, ada, bobEmail ?? "", {
        role: "viewer",
      });
      expect(
        await store.acceptInvitation(
          forBob.tokenDigest,
          { id: bob, email: bobEmail ?? "" },
          T0 + 2000,
        ),
      ).toEqual({ ok: true, organization, role: "admin" });
      // The owner too: an invitation never demotes.
      const forAda = await inviteWithDigest(store, organization, ada, adaEmail, { role: "viewer" });
      expect(
        await store.acceptInvitation(forAda.tokenDigest, { id: ada, email: adaEmail }, T0 + 2000),
      ).toEqual({ ok: true, organization, role: "owner" });
      expect(
        (await store.listMembers(organization.id)).map((member) => [
          member.userId,
          member.role,
          member.joinedAt,
        ]),
      ).toEqual([
        [ada, "owner", T0],
        [bob, "admin", T0 + 1000],
      ]);
      expect(await store.findInvitation(forBob.tokenDigest, T0 + 2000)).toBeUndefined();
    });

    it("lets exactly one of concurrent acceptances of one invitation use it", async () => {
      const { store, newUser, ada, organization } = await withOrganization();
      const email = newEmail();
      const bob = await newUser(email, null);
      const { tokenDigest } = await inviteWithDigest(store, organization, ada, email);
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, () =>
          store.acceptInvitation(tokenDigest, { id: bob, email }, T0 + 1),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.ok)).toEqual([
        { ok: true, organization, role: "member" },
      ]);
      expect(outcomes.filter((outcome) => !outcome.ok)).toEqual(
        Array.from({ length: 7 }, () => ({ ok: false, reason: "not_found" })),
      );
      expect(
        (await store.listMembers(organization.id)).filter((member) => member.userId === bob),
      ).toHaveLength(1);
    });
  });

  describe(`${name}: keys`, () => {
    const newKey = (
      store: OrganizationStore,
      organization: Organization,
      createdBy: number,
      change: {
        name?: string | undefined;
        role?: string | undefined;
        digest?: string | undefined;
        now?: number | undefined;
      } = {},
    ) =>
      store.createKey({
        organizationId: organization.id,
        name: change.name ?? "deploys",
        role: change.role ?? "member",
        digest: change.digest ?? newDigest(),
        createdBy,
        now: change.now ?? T0,
      });

    it("stores a key without its digest, lists an organization's newest first", async () => {
      const { store, ada, organization } = await withOrganization();
      const first = await newKey(store, organization, ada, { name: "CI", role: "viewer" });
      expect(first).toEqual({
        id: first.id,
        organizationId: organization.id,
        name: "CI",
        role: "viewer",
        createdBy: ada,
        lastUsedAt: null,
        createdAt: T0,
      });
      expect(first).not.toHaveProperty("digest");
      const second = await newKey(store, organization, ada, { name: "deploys", now: T0 + 1 });
      expect((await store.listKeys(organization.id)).map((key) => key.id)).toEqual([
        second.id,
        first.id,
      ]);
    });

    it("finds a key and its organization by digest only", async () => {
      const { store, ada, organization } = await withOrganization();
      const digest = newDigest();
      const key = await newKey(store, organization, ada, { digest });
      expect(await store.findKeyHolder(digest)).toEqual({ key, organization });
      expect(await store.findKeyHolder(newDigest())).toBeUndefined();
    });

    it("refuses a second key with the same digest", async () => {
      const { store, ada, organization } = await withOrganization();
      const digest = newDigest();
      await newKey(store, organization, ada, { digest });
      await expect(newKey(store, organization, ada, { digest })).rejects.toThrow();
    });

    it("deletes a key only through its own organization", async () => {
      const { store, ada, organization } = await withOrganization();
      const other = await store.createOrganization({
        name: "Globex",
        slug: unique("globex"),
        ownerId: ada,
        now: T0,
      });
      const digest = newDigest();
      const key = await newKey(store, organization, ada, { digest });
      expect(await store.deleteKey(other!.id, key.id)).toBe(false);
      expect(await store.deleteKey(organization.id + 1_000_000, key.id)).toBe(false);
      expect(await store.findKeyHolder(digest)).toBeDefined();
      expect(await store.deleteKey(organization.id, key.id)).toBe(true);
      expect(await store.deleteKey(organization.id, key.id)).toBe(false);
      expect(await store.findKeyHolder(digest)).toBeUndefined();
      expect(await store.listKeys(organization.id)).toEqual([]);
    });

    it("writes last use at most once per stale bound, also when touched at once", async () => {
      const { store, ada, organization } = await withOrganization();
      const digest = newDigest();
      const key = await newKey(store, organization, ada, { digest });
      const hour = 60 * 60 * 1000;
      const writes = await Promise.all(
        Array.from({ length: 6 }, () => store.touchKey(key.id, T0 + hour, T0)),
      );
      expect(writes.filter(Boolean)).toHaveLength(1);
      expect((await store.findKeyHolder(digest))?.key.lastUsedAt).toBe(T0 + hour);
      // Within the hour: nothing written; after it, the time moves.
      expect(await store.touchKey(key.id, T0 + hour + 1, T0 + 1)).toBe(false);
      expect(await store.touchKey(key.id, T0 + 2 * hour, T0 + hour)).toBe(true);
      expect((await store.findKeyHolder(digest))?.key.lastUsedAt).toBe(T0 + 2 * hour);
    });

    it("takes an organization's keys with it when it is deleted", async () => {
      const { store, ada, organization } = await withOrganization();
      const digest = newDigest();
      await newKey(store, organization, ada, { digest });
      expect(await store.deleteOrganization(organization.id)).toBe(true);
      expect(await store.findKeyHolder(digest)).toBeUndefined();
      expect(await store.listKeys(organization.id)).toEqual([]);
    });
  });
}
