import {
  BUILT_IN_ROLES,
  defineRoles,
  ORGANIZATION_PERMISSIONS,
  OWNER_ROLE,
} from "@tessera/organizations";
import { describe, expect, it } from "vitest";

describe("defineRoles: the built-in roles", () => {
  const roles = defineRoles();

  it("names owner first, then admin, member and viewer", () => {
    expect(roles.names).toEqual(["owner", "admin", "member", "viewer"]);
    expect(OWNER_ROLE).toBe("owner");
    for (const name of roles.names) expect(roles.has(name)).toBe(true);
  });

  it("gives each built-in role the permissions of the table in the README", () => {
    const table = Object.fromEntries(
      roles.names.map((role) => [
        role,
        ORGANIZATION_PERMISSIONS.filter((permission) => roles.allows(role, permission)),
      ]),
    );
    expect(table).toEqual({
      owner: [...ORGANIZATION_PERMISSIONS],
      admin: ORGANIZATION_PERMISSIONS.filter((permission) => permission !== "organization:delete"),
      member: ["records:read", "records:create", "records:update", "records:delete"],
      viewer: ["records:read"],
    });
    expect(Object.keys(BUILT_IN_ROLES)).toEqual(["owner", "admin", "member", "viewer"]);
  });

  it("lets an unknown role do nothing, also one named like an object's own key", () => {
    for (const role of ["guest", "constructor", "__proto__", "toString", "hasOwnProperty", ""]) {
      expect(roles.has(role)).toBe(false);
      expect(roles.allows(role, "records:read")).toBe(false);
      expect(roles.allows(role, "projects:read")).toBe(false);
      expect(roles.grantableBy(role, "owner")).toBe(false);
    }
  });

  it("grants a model's permission by the records' one, never a built-in area's", () => {
    expect(roles.allows("member", "projects:delete")).toBe(true);
    expect(roles.allows("viewer", "projects:read")).toBe(true);
    expect(roles.allows("viewer", "projects:delete")).toBe(false);
    expect(roles.allows("member", "organization:update")).toBe(false);
    expect(roles.allows("member", "members:invite")).toBe(false);
    expect(roles.allows("member", "keys:delete")).toBe(false);
    expect(roles.allows("member", "webhooks:update")).toBe(false);
    // An action the records have no permission for is not derived.
    expect(roles.allows("member", "projects:archive")).toBe(false);
    expect(roles.allows("owner", "projects:archive")).toBe(false);
    expect(roles.allows("owner", "projects:delete")).toBe(true);
  });

  it("lets a role be given only by one that has every permission of it", () => {
    expect(roles.grantableBy("admin", "owner")).toBe(true);
    expect(roles.grantableBy("owner", "owner")).toBe(true);
    expect(roles.grantableBy("owner", "admin")).toBe(false);
    expect(roles.grantableBy("admin", "admin")).toBe(true);
    expect(roles.grantableBy("viewer", "member")).toBe(true);
    // An unknown giver gives nothing, not even a role without permissions.
    expect(defineRoles({ guest: [] }).grantableBy("guest", "stranger")).toBe(false);
    // A permission of another shape is never granted through a model's records rule.
    expect(roles.allows("member", "projects:delete:x")).toBe(false);
    expect(roles.grantableBy("member", "viewer")).toBe(false);
    expect(roles.grantableBy("viewer", "guest")).toBe(false);
  });
});

describe("defineRoles: an app's own roles", () => {
  const roles = defineRoles({
    billing: ["billing:manage", "records:read"],
    editor: ["projects:update", "projects:read"],
    admin: ["members:invite", "records:read"],
  });

  it("adds its roles after the built-in ones and replaces a built-in one but owner", () => {
    expect(roles.names).toEqual(["owner", "admin", "member", "viewer", "billing", "editor"]);
    expect(roles.allows("admin", "members:invite")).toBe(true);
    expect(roles.allows("admin", "organization:update")).toBe(false);
    expect(roles.allows("admin", "keys:manage")).toBe(false);
    expect(roles.allows("billing", "billing:manage")).toBe(true);
    expect(roles.allows("billing", "records:update")).toBe(false);
  });

  it("gives owner every custom permission, and every built-in one still", () => {
    expect(roles.allows("owner", "billing:manage")).toBe(true);
    for (const permission of ORGANIZATION_PERMISSIONS) {
      expect(roles.allows("owner", permission)).toBe(true);
    }
    expect(roles.grantableBy("billing", "owner")).toBe(true);
    expect(roles.grantableBy("editor", "owner")).toBe(true);
  });

  it("lets a per-model permission refine, never take away", () => {
    expect(roles.allows("editor", "projects:update")).toBe(true);
    // A per-model permission does not reach the records as a whole, nor another model.
    expect(roles.allows("editor", "records:update")).toBe(false);
    expect(roles.allows("editor", "tasks:update")).toBe(false);
    // member's records:update covers projects:update: it may give editor, viewer may not.
    expect(roles.grantableBy("editor", "member")).toBe(true);
    expect(roles.grantableBy("editor", "viewer")).toBe(false);
    expect(roles.grantableBy("billing", "member")).toBe(false);
  });
});

describe("defineRoles: what it refuses", () => {
  it.each([
    ["Admin", "`Admin` is not a role name"],
    ["1st", "`1st` is not a role name"],
    ["read-only", "`read-only` is not a role name"],
    ["", "`` is not a role name"],
    ["a".repeat(33), `\`${"a".repeat(33)}\` is not a role name`],
  ])("a role named %j", (name, message) => {
    expect(() => defineRoles({ [name]: ["records:read"] })).toThrow(
      new TypeError(`defineRoles: ${message}`),
    );
  });

  it("accepts a name of 32 characters, with digits and underscores after the first letter", () => {
    const name = `a${"b_1".repeat(10)}c`;
    expect(name).toHaveLength(32);
    expect(defineRoles({ [name]: [] }).has(name)).toBe(true);
  });

  it("refuses to redefine owner", () => {
    expect(() => defineRoles({ owner: ["records:read"] })).toThrow(
      new TypeError("defineRoles: `owner` is built in and may do all"),
    );
  });

  it.each([
    "delete",
    "projects:",
    ":delete",
    "Projects:delete",
    "projects:delete:all",
    "projects:de-lete",
    "projects: delete",
  ])("a permission %j", (permission) => {
    expect(() => defineRoles({ auditor: [permission] })).toThrow(
      new TypeError(`defineRoles: \`${permission}\` of auditor is not area:action`),
    );
  });
});
