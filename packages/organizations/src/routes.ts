// The HTTP half of `@tessera/organizations` (`@tessera/organizations/routes`): the JSON routes
// of organizations, members and invitations, and the membership check other packages' routes of
// an organization pass, on @tessera/http, @tessera/mail and @tessera/accounts.
export { INVITATION_PAGE_PATH } from "./routes/invitation-mail.js";
export { type InvitationPagesOptions, invitationPages } from "./routes/invitation-pages.js";
export {
  type AuditedRequest,
  ORGANIZATION_AUDIT_EVENT_TYPES,
  type OrganizationAuditEventType,
} from "./routes/organization-audit.js";
export { MAXIMUM_ORGANIZATION_BODY_BYTES } from "./routes/organization-body.js";
export type {
  OrganizationMemberContext,
  OrganizationUser,
  OrganizationUserContext,
} from "./routes/organization-context.js";
export {
  type OrganizationErrorCode,
  type OrganizationErrorEntry,
  organizationErrors,
} from "./routes/organization-errors.js";
export { MAXIMUM_ORGANIZATION_NAME_LENGTH } from "./routes/organization-fields.js";
export {
  ORGANIZATION_KEY_PREFIX,
  type OrganizationCaller,
  type OrganizationCallersOptions,
  organizationCallers,
} from "./routes/organization-key-authentication.js";
export {
  findCallerMembership,
  findOrganizationMembership,
  type OrganizationAccess,
  type OrganizationCallerShape,
  type OrganizationMembership,
  organizationMember,
} from "./routes/organization-member.js";
export {
  type OrganizationMessageId,
  organizationMessages,
} from "./routes/organization-messages.js";
export { type OrganizationOpenApi, organizationOpenApi } from "./routes/organization-openapi.js";
export {
  type OrganizationOwner,
  type OrganizationOwnerOptions,
  organizationEndpointOwnerId,
  organizationOwner,
} from "./routes/organization-owner.js";
export {
  ORGANIZATIONS_PAGE_PATH,
  type OrganizationPagesOptions,
  organizationPages,
  type RecordLink,
  readableRecordLinks,
} from "./routes/organization-pages.js";
export {
  type OrganizationRecordAction,
  type OrganizationRecordOwnerResolver,
  type OrganizationRecordScope,
  organizationRecords,
  resolveOrganizationRecordOwner,
} from "./routes/organization-records.js";
export { organizationRoutes } from "./routes/organization-routes.js";
export {
  INVITATION_LIFETIME_MS,
  ORGANIZATION_WRITE_RATE_LIMIT,
  type OrganizationRoutesOptions,
} from "./routes/organization-routes-options.js";
export {
  ORGANIZATION_SWITCHER_MENU,
  type OrganizationSwitcherContext,
  type OrganizationSwitcherOptions,
  organizationSwitcher,
} from "./routes/organization-switcher.js";
export { type KeepSoleOwnersOptions, keepSoleOwners } from "./routes/sole-owners.js";
