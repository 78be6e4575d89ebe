import { defineRoles, ORGANIZATION_PERMISSIONS, type RoleTable } from "@tessera/organizations";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const BUILT_IN_AREAS = ["organization", "members", "records", "keys", "webhooks"];
const RECORD_ACTIONS = ["read", "create", "update", "delete"];

const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,9}$/);
/** A model's name: any word but a built-in area. */
const model = word.filter((name) => !BUILT_IN_AREAS.includes(name));
const permission = fc.oneof(
  fc.constantFrom(...ORGANIZATION_PERMISSIONS),
  fc
    .tuple(model, fc.constantFrom(...RECORD_ACTIONS, "archive", "export"))
    .map(([area, action]) => `${area}:${action}`),
  fc.tuple(word, word).map(([area, action]) => `${area}:${action}`),
);
/** An app's own roles: new ones, and replacements of the built-in ones but owner. */
const customRoles: fc.Arbitrary<RoleTable> = fc.dictionary(
  fc.oneof(word, fc.constantFrom("admin", "member", "viewer")).filter((name) => name !== "owner"),
  fc.uniqueArray(permission, { maxLength: 6 }),
  { maxKeys: 5, noNullPrototype: true },
);

describe("defineRoles, for any app's roles", () => {
  it("lets owner do whatever any role may, and give every role", () => {
    fc.assert(
      fc.property(customRoles, fc.array(permission, { maxLength: 8 }), (custom, asked) => {
        const roles = defineRoles(custom);
        for (const role of roles.names) {
          expect(roles.grantableBy(role, "owner")).toBe(true);
          for (const wanted of [...(custom[role] ?? []), ...asked]) {
            if (roles.allows(role, wanted)) expect(roles.allows("owner", wanted)).toBe(true);
          }
        }
      }),
    );
  });

  it("lets every role give itself, and giving pass along (a chain never gives more)", () => {
    fc.assert(
      fc.property(customRoles, (custom) => {
        const roles = defineRoles(custom);
        for (const a of roles.names) {
          expect(roles.grantableBy(a, a)).toBe(true);
          for (const b of roles.names) {
            for (const c of roles.names) {
              if (roles.grantableBy(a, b) && roles.grantableBy(b, c)) {
                expect(roles.grantableBy(a, c)).toBe(true);
              }
            }
          }
        }
      }),
    );
  });

  it("derives a model's permission from the records' one, and never a built-in area's", () => {
    fc.assert(
      fc.property(
        customRoles,
        model,
        fc.constantFrom(...RECORD_ACTIONS),
        fc.constantFrom(...BUILT_IN_AREAS.filter((area) => area !== "records")),
        (custom, table, action, area) => {
          const roles = defineRoles(custom);
          for (const role of roles.names) {
            if (roles.allows(role, `records:${action}`)) {
              expect(roles.allows(role, `${table}:${action}`)).toBe(true);
            }
            // A built-in area's permission only when the role holds it itself.
            const own = `${area}:${action}`;
            const holds =
              role === "owner"
                ? [...ORGANIZATION_PERMISSIONS, ...Object.values(custom).flat()]
                : (custom[role] ?? defaultOf(role));
            expect(roles.allows(role, own)).toBe(holds.includes(own));
          }
        },
      ),
    );
  });

  it("lets a role no one defined do nothing", () => {
    fc.assert(
      fc.property(customRoles, word, permission, (custom, role, wanted) => {
        fc.pre(
          !Object.hasOwn(custom, role) && !["owner", "admin", "member", "viewer"].includes(role),
        );
        const roles = defineRoles(custom);
        expect(roles.has(role)).toBe(false);
        expect(roles.allows(role, wanted)).toBe(false);
      }),
    );
  });
});

/** A built-in role's permissions, as defineRoles() alone has them. */
function defaultOf(role: string): readonly string[] {
  const roles = defineRoles();
  return ORGANIZATION_PERMISSIONS.filter((permission) => roles.allows(role, permission));
}
