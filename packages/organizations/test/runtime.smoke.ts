import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type OrganizationsModule = typeof import("@tessera/organizations");

export default {
  does: "define roles with a custom one, make a slug, create an organization, invite and accept a member, refuse to demote the last owner",
  imports: () => ["@tessera/organizations"],
  async run({ load, check }) {
    const organizations = await load<OrganizationsModule>("@tessera/organizations");
    const roles = organizations.defineRoles({ billing: ["billing:manage", "records:read"] });
    check(roles.allows("owner", "billing:manage"), "owner holds a custom permission");
    check(roles.allows("member", "projects:delete"), "records:delete grants projects:delete");
    check(!roles.allows("member", "organization:update"), "records:update grants no area's");
    check(!roles.grantableBy("owner", "admin"), "admin cannot give owner");

    const slug = organizations.slugFromName("Café Crème");
    check(slug === "cafe-creme", "a slug drops accents");
    check(organizations.slugProblem("api") === organizations.SLUG_RESERVED, "api is reserved");

    const users = new Map([
      [1, { email: "ada@example.com", name: "Ada" }],
      [2, { email: "bob@example.com", name: null }],
    ]);
    const store = new organizations.MemoryOrganizationStore((id) => users.get(id));
    const now = Date.UTC(2026, 0, 2);
    const acme = await store.createOrganization({ name: "Café Crème", slug, ownerId: 1, now });
    check(acme?.slug === slug, "the organization is created");
    const taken = await store.createOrganization({ name: "Other", slug, ownerId: 2, now });
    check(taken === undefined, "a taken slug is refused");
    await store.createInvitation({
      organizationId: acme?.id ?? 0,
      email: "bob@example.com",
      role: "billing",
      invitedBy: 1,
      tokenDigest: "d".repeat(64),
      expiresAt: now + 86_400_000,
      now,
    });
    const wrong = await store.acceptInvitation(
      "d".repeat(64),
      { id: 1, email: "ada@example.com" },
      now,
    );
    check(!wrong.ok && wrong.reason === "email_mismatch", "another address is refused");
    const accepted = await store.acceptInvitation(
      "d".repeat(64),
      { id: 2, email: "bob@example.com" },
      now,
    );
    check(accepted.ok && accepted.role === "billing", "the invited address joins with its role");
    const again = await store.acceptInvitation(
      "d".repeat(64),
      { id: 2, email: "bob@example.com" },
      now,
    );
    check(!again.ok && again.reason === "not_found", "an invitation is used once");
    check((await store.findMembership(slug, 2))?.role === "billing", "the member is found");
    check(
      (await store.changeRole(acme?.id ?? 0, 1, "admin")) === "last_owner",
      "the last owner stays one",
    );
    const members = await store.listMembers(acme?.id ?? 0);
    check(
      members.map((member) => member.email).join() === "ada@example.com,bob@example.com",
      "members are listed",
    );
  },
} satisfies RuntimeSmoke;
