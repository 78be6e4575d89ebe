/** What a role may do in its organization: the permission names routes check. */
export const ORGANIZATION_PERMISSIONS = [
  "organization:update",
  "organization:delete",
  "members:invite",
  "members:remove",
  "members:change_role",
  "records:read",
  "records:create",
  "records:update",
  "records:delete",
  "keys:manage",
  "webhooks:manage",
] as const;

/**
 * A permission: one of {@link ORGANIZATION_PERMISSIONS}, or an app's own per model
 * (`projects:delete`, which a check of `records:delete` on projects also accepts).
 */
export type Permission = string;

/** Role name → its permissions. */
export type RoleTable = Readonly<Record<string, readonly Permission[]>>;

/** The role an organization's creator gets, which may do everything; there is always one. */
export const OWNER_ROLE = "owner";

const RECORDS = ["records:read", "records:create", "records:update", "records:delete"] as const;

/** The built-in roles: owner (everything), admin (all but deleting), member, viewer. */
export const BUILT_IN_ROLES: RoleTable = {
  owner: ORGANIZATION_PERMISSIONS,
  admin: [
    "organization:update",
    "members:invite",
    "members:remove",
    "members:change_role",
    ...RECORDS,
    "keys:manage",
    "webhooks:manage",
  ],
  member: RECORDS,
  viewer: ["records:read"],
};

/** `organization`, `members`, `records`, `keys`, `webhooks`: areas a model cannot be named. */
export const BUILT_IN_AREAS: ReadonlySet<string> = new Set(
  ORGANIZATION_PERMISSIONS.map((permission) => permission.split(":")[0]!),
);

const ROLE_NAME = /^[a-z][a-z0-9_]{0,31}$/;
const PERMISSION_NAME = /^[a-z][a-z0-9_]*:[a-z][a-z0-9_]*$/;

/** The roles of an app: {@link BUILT_IN_ROLES} and its own, checked once. */
export interface Roles {
  /** Every role name, owner first. */
  readonly names: readonly string[];
  /** Whether `role` may do `permission` (an unknown role may do nothing). */
  allows(role: string, permission: Permission): boolean;
  /**
   * Whether `role` may be given by someone who holds `giver`: every permission of `role` is
   * one of `giver`'s, so nobody hands out more than they have.
   */
  grantableBy(role: string, giver: string): boolean;
  /** Whether `role` is a role of this app. */
  has(role: string): boolean;
}

/**
 * The app's roles: the built-in ones, with `custom` added or replacing any but `owner` (which
 * always holds every built-in permission and every custom one). Names are lower-case words;
 * permissions `area:action`, per model allowed (`projects:delete`).
 * @throws {TypeError} for a malformed name or permission, or an attempt to redefine `owner`.
 */
export function defineRoles(custom: RoleTable = {}): Roles {
  for (const [name, permissions] of Object.entries(custom)) {
    if (!ROLE_NAME.test(name)) throw new TypeError(`defineRoles: \`${name}\` is not a role name`);
    if (name === OWNER_ROLE) throw new TypeError("defineRoles: `owner` is built in and may do all");
    for (const permission of permissions) {
      if (!PERMISSION_NAME.test(permission)) {
        throw new TypeError(`defineRoles: \`${permission}\` of ${name} is not area:action`);
      }
    }
  }
  const everyCustom = Object.values(custom).flat();
  const table: Record<string, ReadonlySet<Permission>> = {};
  for (const [name, permissions] of Object.entries({ ...BUILT_IN_ROLES, ...custom })) {
    table[name] = new Set(name === OWNER_ROLE ? [...permissions, ...everyCustom] : permissions);
  }
  const allows = (role: string, permission: Permission) => {
    const permissions = Object.hasOwn(table, role) ? table[role] : undefined;
    if (!permissions || !PERMISSION_NAME.test(permission)) return false;
    if (permissions.has(permission)) return true;
    // A model's permission (`projects:delete`) is also granted by the records' one
    // (`records:delete`): per-model permissions refine, they never take away.
    const [area, action] = permission.split(":");
    return area !== undefined && !BUILT_IN_AREAS.has(area) && permissions.has(`records:${action}`);
  };
  return {
    names: [OWNER_ROLE, ...Object.keys(table).filter((name) => name !== OWNER_ROLE)],
    allows,
    has: (role) => Object.hasOwn(table, role),
    grantableBy(role, giver) {
      const given = Object.hasOwn(table, role) ? table[role] : undefined;
      if (given === undefined || !Object.hasOwn(table, giver)) return false;
      return [...given].every((permission) => allows(giver, permission));
    },
  };
}
