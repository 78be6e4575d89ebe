import { defineMessages, type MessageIdOf } from "@tessera/core";

/**
 * The texts of the organization routes, in English: their refusals, the field messages of
 * their own, and the invitation mail.
 */
export const organizationMessages = defineMessages({
  "organizations.unknown_field": "Unknown field {field}.",
  "organizations.not_a_string": "{field} must be a string.",
  "organizations.nul_character": "{field} must not contain NUL characters.",
  "organizations.lone_surrogate": "{field} must not contain a lone surrogate.",
  "organizations.permission_required": "You need the {permission} permission.",
  "organizations.role_not_grantable":
    "Your role cannot give or take away the {role} role: it may do more than yours.",
  "organizations.last_owner":
    "An organization needs an owner: make another member an owner before this one leaves or changes role.",
  "organizations.sole_owner_account":
    "You are the only owner of {organizations}: make another member an owner, or delete the organization, before you delete your account.",
  "organizations.invitation_not_found":
    "This invitation cannot be accepted: it was used or revoked, or it has expired.",
  "organizations.invitation_email_mismatch":
    "This invitation was sent to another email address: sign in with the account of that address to accept it.",
  "organizations.invitation_email_unconfirmed":
    "Confirm your email address before you accept an invitation.",
  "organizations.invitation_not_sent": "The invitation mail could not be sent: try again later.",
  "organizations.name_control_character": "must not contain control characters",
  "organizations.already_member": "is already a member of this organization",
  "organizations.slug_length": "must be 3 to 40 characters",
  "organizations.slug_shape": "may hold only lower-case letters, digits and single hyphens inside",
  "organizations.slug_reserved": "is reserved",
  "organizations.invitation_mail_subject": "You're invited to join {organization}",
  "organizations.invitation_mail_intro": "{inviter} invited you to join {organization} as {role}.",
  "organizations.invitation_mail_action": "Accept the invitation here:",
  "organizations.invitation_page_title": "Join {organization}",
  "organizations.invitation_page_intro": "You are invited to join {organization} as {role}.",
  "organizations.invitation_page_gone": "Invitation not available",
  "organizations.invitation_accept_button": "Accept the invitation",
  "organizations.invitation_accepted": "You joined {organization} as {role}.",
  "organizations.page_title": "Organizations",
  "organizations.page_none": "You are not a member of any organization yet.",
  "organizations.create_heading": "Create an organization",
  "organizations.name_label": "Name",
  "organizations.slug_label": "Address in links (optional: made from the name)",
  "organizations.create_button": "Create the organization",
  "organizations.created": "The organization {organization} was created.",
  "organizations.not_found": "There is no such organization, or you are not one of its members.",
  "organizations.your_role": "Your role: {role}.",
  "organizations.members_heading": "Members",
  "organizations.member_email": "Email",
  "organizations.member_name": "Name",
  "organizations.member_role": "Role",
  "organizations.member_joined": "Joined (UTC)",
  "organizations.invitations_heading": "Pending invitations",
  "organizations.invitation_row": "{email} as {role}, until {expires} (UTC)",
  "organizations.invite_heading": "Invite someone",
  "organizations.invite_email_label": "Email address",
  "organizations.invite_role_label": "Role",
  "organizations.invite_button": "Send the invitation",
  "organizations.invited": "An invitation was sent to {email}.",
  "organizations.leave_button": "Leave this organization",
  "organizations.left": "You left {organization}.",
  "organizations.role_changed": "{email} is now {role}.",
  "organizations.member_removed": "{email} was removed from the organization.",
  "organizations.invitation_revoked": "The invitation was revoked: its link no longer works.",
  "organizations.no_such_member": "There is no such member.",
  "organizations.no_such_invitation": "There is no such pending invitation.",
  "organizations.no_such_role": "There is no such role.",
  "organizations.change_role_button": "Change the role",
  "organizations.remove_button": "Remove",
  "organizations.revoke_button": "Revoke",
  "organizations.invitation_mail_validity":
    "The invitation is valid until {expires} (UTC). If you did not expect it, ignore this mail.",
  "organizations.settings_heading": "Name and address",
  "organizations.settings_slug_label": "Address in links",
  "organizations.settings_button": "Save the name and address",
  "organizations.renamed": "The organization was renamed: {organization}, at {slug}.",
  "organizations.delete_heading": "Delete this organization",
  "organizations.delete_warning":
    "Deleting {organization} deletes its members, its pending invitations and everything it owns, for good.",
  "organizations.delete_confirm_label": "Type {slug} to confirm",
  "organizations.delete_button": "Delete the organization",
  "organizations.delete_not_confirmed":
    "Type the organization's address, {slug}, exactly as shown to confirm the deletion.",
  "organizations.deleted": "{organization} was deleted.",
  "organizations.switcher_label": "Your organizations",
  "organizations.switcher_all": "All organizations, or a new one",
});

/** An id of {@link organizationMessages}. */
export type OrganizationMessageId = MessageIdOf<typeof organizationMessages>;
