// @tessera/organizations: organizations, their members, roles and invitations.

// In the main entry too (it imports no vitest): for prototypes, one process and runtime checks.
export {
  type MemberProfile,
  MemoryOrganizationStore,
} from "./memory-organization-store.js";
export type {
  Invitation,
  Member,
  Organization,
  OrganizationKey,
  OrganizationWithRole,
} from "./organization.js";
export type {
  InvitationAcceptance,
  MemberChangeRefusal,
  NewInvitation,
  NewOrganization,
  NewOrganizationKey,
  OrganizationChange,
  OrganizationKeyHolder,
  OrganizationStore,
} from "./organization-store.js";
export {
  BUILT_IN_ROLES,
  defineRoles,
  ORGANIZATION_PERMISSIONS,
  OWNER_ROLE,
  type Permission,
  type Roles,
  type RoleTable,
} from "./roles.js";
export {
  RESERVED_SLUGS,
  SLUG_LENGTH,
  SLUG_RESERVED,
  SLUG_SHAPE,
  slugFromName,
  slugProblem,
} from "./slug.js";
