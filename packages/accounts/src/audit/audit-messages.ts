/**
 * The English texts of the activity page: its frame and one label per account event;
 * `accountMessages` holds them all.
 */
export const auditTexts = {
  "accounts.activity.title": "Account activity",
  "accounts.activity.intro":
    "What happened to your account, newest first: sign-ins, failed attempts and every change of its credentials.",
  "accounts.activity.link": "See your account's activity",
  "accounts.activity.when": "When",
  "accounts.activity.event": "Event",
  "accounts.activity.browser": "Browser",
  "accounts.activity.ip_address": "IP address",
  "accounts.activity.unknown": "Unknown",
  "accounts.activity.none": "Nothing has happened yet.",
  "accounts.activity.older": "Older activity",
  "accounts.activity.back_to_account": "Back to your account",
  "accounts.activity.by_admin": "by an administrator",
  "accounts.activity.user.signed_up": "Account created",
  "accounts.activity.user.signed_in": "Signed in",
  "accounts.activity.user.sign_in_failed": "Failed sign-in",
  "accounts.activity.user.signed_out": "Signed out",
  "accounts.activity.user.password_changed": "Password changed",
  "accounts.activity.user.password_reset": "Password reset",
  "accounts.activity.user.email_change_requested": "Email change requested",
  "accounts.activity.user.email_changed": "Email changed",
  "accounts.activity.user.mfa_enabled": "Two-factor codes turned on",
  "accounts.activity.user.mfa_disabled": "Two-factor codes turned off",
  "accounts.activity.user.backup_codes_regenerated": "New backup codes",
  "accounts.activity.user.passkey_added": "Passkey added",
  "accounts.activity.user.passkey_removed": "Passkey removed",
  "accounts.activity.user.api_key_created": "API key created",
  "accounts.activity.user.api_key_deleted": "API key deleted",
  "accounts.activity.user.session_revoked": "Device signed out",
  "accounts.activity.user.throttled": "Sign-ins slowed after many wrong passwords",
  "accounts.activity.user.banned": "Account banned",
  "accounts.activity.user.unbanned": "Ban lifted",
  "accounts.activity.user.deleted": "Account deleted",
} as const;
