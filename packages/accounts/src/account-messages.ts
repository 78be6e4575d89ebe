import { defineMessages, type MessageIdOf } from "@tessera/core";

/**
 * Every message `@tessera/accounts` writes for a person, in English (the spec's exact strings):
 * JSON messages, the pages' text, flashes and the account mails. A request's `context.locale`
 * picks the language; pass `accountMessages.english`'s ids to a translator. Diagnostics for
 * developers (a malformed body) and operators (no mailer configured) stay English.
 */
export const accountMessages = defineMessages({
  // JSON answers.
  "accounts.invalid_credentials": "Unauthorized",
  "accounts.password_incorrect": "The password is incorrect.",
  "accounts.not_your_email": "That is not your email address.",
  "accounts.mfa_required": "A second factor is required to sign in.",
  "accounts.totp_already_enabled": "Two-factor codes are already on; turn them off first.",
  "accounts.totp_not_pending": "No two-factor setup is waiting for a code.",
  "accounts.totp_not_enabled": "Two-factor codes are not on.",
  "accounts.email_code_sent": "If an account uses that address, a sign-in code is on its way.",
  "accounts.passkey_invalid": "The passkey could not be verified. Try adding it again.",
  "accounts.no_passkey": "This account has no passkey.",
  "accounts.reauthentication_required":
    "This needs a recent sign-in: confirm it is you, then try again within 10 minutes.",
  "accounts.api_key_not_allowed": "An API key cannot manage credentials; sign in to do this.",

  // Flashes and alerts.
  "accounts.welcome": "Welcome! Your account is ready. Check your email to confirm your address.",
  "accounts.welcome_without_mail": "Welcome! Your account is ready.",
  "accounts.invalid_login": "Invalid email or password.",
  "accounts.signed_in": "Signed in.",
  "accounts.signed_out": "Signed out.",
  "accounts.account_deleted": "Your account has been deleted.",
  "accounts.magic_link_sent": "If an account exists for that email, a sign-in link is on its way.",
  "accounts.magic_link_invalid": "That sign-in link is invalid or has expired.",
  "accounts.password_reset_sent":
    "If an account exists for that email, a link to reset your password is on its way.",
  "accounts.password_reset_invalid": "That password reset link is invalid or has expired.",
  "accounts.password_changed": "Your password has been changed. Log in with it now.",
  "accounts.confirmation_sent": "A new confirmation link is on its way.",
  "accounts.already_confirmed": "Your email address is already confirmed.",
  "accounts.confirmed": "Thanks, your email address is confirmed.",
  "accounts.confirmation_invalid": "That confirmation link is invalid or has expired.",
  "accounts.session_ended": "That device is signed out.",
  "accounts.other_sessions_ended": "Signed out of {count} other session(s).",

  // Form fields: names as error messages start with them, and the bare message of a field.
  "accounts.field.email": "Email",
  "accounts.field.password": "Password",
  "accounts.field.password_confirmation": "Password confirmation",
  "accounts.confirmation_mismatch": "doesn't match Password",

  // A form the server could not read.
  "accounts.bad_request_title": "Bad request",
  "accounts.unreadable_form": "The form could not be read.",
  "accounts.form_too_large_title": "Form too large",
  "accounts.form_too_large": "The form is larger than {megabytes} MB.",
  "accounts.too_many_requests_title": "Too many requests",

  // Sign-up and log-in pages.
  "accounts.signup.title": "Sign up",
  "accounts.signup.password_label": "Password (8 to 128 characters)",
  "accounts.signup.have_account": "Already have an account?",
  "accounts.login.title": "Log in",
  "accounts.login.remember_me": "Keep me signed in for two weeks",
  "accounts.login.forgot_password": "Forgot your password?",
  "accounts.login.other_ways": "Other ways to sign in",
  "accounts.login.new_here": "New here?",
  "accounts.second_factor.title": "Two-factor authentication",
  "accounts.second_factor.prompt":
    "Enter the 6-digit code from your authenticator app, or one of your backup codes.",
  "accounts.second_factor.code_label": "Code",
  "accounts.second_factor.submit": "Verify",
  "accounts.second_factor.invalid": "That code is not valid.",
  "accounts.second_factor.expired":
    "Your sign-in took too long or had too many wrong codes. Log in again.",

  // The account page.
  "accounts.account.title": "Your account",
  "accounts.account.member_since": "Member since",
  "accounts.account.confirm_title": "Please confirm your email address",
  "accounts.account.confirmation_sent_to":
    "We sent a confirmation link to {email}. It is valid for 24 hours.",
  "accounts.account.not_confirmed": "Your email address {email} is not confirmed yet.",
  "accounts.account.resend_confirmation": "Send a new confirmation link",
  "accounts.account.devices_link": "Your signed-in devices",
  "accounts.account.delete_title": "Delete your account",
  "accounts.account.delete_warning":
    "This deletes your account and everything it owns, at once and for good.",
  "accounts.account.confirm_with_password": "Your password, to confirm",
  "accounts.account.confirm_with_email": "Your email address, to confirm",
  "accounts.account.delete_button": "Delete my account",

  // Passkeys on the log-in pages, and the security page.
  "accounts.login.passkey": "Sign in with a passkey",
  "accounts.login.passkey_failed": "That passkey could not sign you in.",
  "accounts.second_factor.passkey": "Use a passkey",
  "accounts.account.security_link": "Two-factor authentication and passkeys",
  "accounts.security.title": "Security",
  "accounts.security.totp_title": "Authenticator app",
  "accounts.security.totp_off":
    "Two-factor codes are off: turn them on to be asked for a code from an authenticator app after your password.",
  "accounts.security.totp_enable": "Turn on two-factor codes",
  "accounts.security.totp_scan":
    "Scan this QR code with your authenticator app, or type the key, then enter the code the app shows.",
  "accounts.security.totp_key": "Key",
  "accounts.security.totp_confirm": "Turn on",
  "accounts.security.totp_on": "Two-factor codes are on. Backup codes left: {count}.",
  "accounts.security.totp_enabled": "Two-factor codes are on.",
  "accounts.security.totp_disabled": "Two-factor codes are off.",
  "accounts.security.totp_disable": "Turn off two-factor codes",
  "accounts.security.backup_codes_title": "Your backup codes",
  "accounts.security.backup_codes_intro":
    "Keep these codes somewhere safe: each one signs you in once if you lose your device. They are shown only now.",
  "accounts.security.regenerate": "Make new backup codes",
  "accounts.security.passkeys_title": "Passkeys",
  "accounts.security.no_passkeys": "You have no passkey yet.",
  "accounts.security.passkey_name": "Name",
  "accounts.security.passkey_added_at": "Added",
  "accounts.security.passkey_last_used": "Last used",
  "accounts.security.never_used": "Never",
  "accounts.security.rename": "Rename",
  "accounts.security.remove": "Remove",
  "accounts.security.add_passkey": "Add a passkey",
  "accounts.security.passkey_added": "Passkey added.",
  "accounts.security.passkey_renamed": "Passkey renamed.",
  "accounts.security.passkey_removed": "Passkey removed.",
  "accounts.security.back_to_account": "Back to your account",
  "accounts.security.reauthenticate_title": "Confirm it is you",
  "accounts.security.reauthenticate_intro":
    "Changing your second factors, passkeys or account needs a sign-in from the last 10 minutes.",
  "accounts.security.reauthenticate_button": "Confirm",
  "accounts.security.sign_in_again": "Sign in again to change these settings.",
  "accounts.security.reauthenticated":
    "Thanks: you can change these settings for the next 10 minutes.",

  // Emailed links' pages.
  "accounts.back_to_login": "Back to log in",
  "accounts.magic_link.request_title": "Sign in with a link",
  "accounts.magic_link.request_intro":
    "Enter your email address and we will send you a link that signs you in.",
  "accounts.magic_link.request_button": "Email me a sign-in link",
  "accounts.magic_link.confirm_title": "Sign in",
  "accounts.magic_link.confirm_intro": "Press the button to sign in. The link works once.",
  "accounts.password_reset.request_title": "Reset your password",
  "accounts.password_reset.request_intro":
    "Enter your email address and we will send you a link to choose a new password.",
  "accounts.password_reset.request_button": "Email me a reset link",
  "accounts.new_password.title": "Choose a new password",
  "accounts.new_password.password_label": "New password (8 to 128 characters)",
  "accounts.new_password.confirmation_label": "New password again",
  "accounts.new_password.button": "Save the new password",
  "accounts.sign_out_other_sessions": "Sign out of all other sessions",
  "accounts.confirmation.title": "Confirm your email address",
  "accounts.confirmation.intro": "Press the button to confirm your email address.",
  "accounts.confirmation.button": "Confirm my email address",

  // The signed-in devices page.
  "accounts.sessions.title": "Signed-in devices",
  "accounts.sessions.intro":
    "These browsers are signed in to your account. A device you sign out here is signed out at its next request.",
  "accounts.sessions.browser": "Browser",
  "accounts.sessions.ip_address": "IP address",
  "accounts.sessions.last_seen": "Last seen",
  "accounts.sessions.signed_in_with": "Signed in with",
  "accounts.sessions.factors_unknown": "Not recorded",
  "accounts.factor.password": "Password",
  "accounts.factor.magic_link": "Sign-in link",
  "accounts.factor.email_code": "Sign-in code",
  "accounts.factor.oauth": "Sign-in provider",
  "accounts.factor.totp": "Authenticator code",
  "accounts.factor.backup_code": "Backup code",
  "accounts.factor.passkey": "Passkey",
  "accounts.factor.user_verification": "Verified on the device",
  "accounts.sessions.action": "Action",
  "accounts.sessions.this_device": "This device",
  "accounts.sessions.sign_out": "Sign out",
  "accounts.sessions.unknown_address": "Unknown",
  "accounts.sessions.back_to_account": "Back to your account",
  "accounts.sessions.not_found": "There is no such session signed in to your account.",
  "accounts.sessions.see_devices": "See your signed-in devices",

  // Changing the password while signed in.
  "accounts.password.changed": "Your password has been changed.",
  "accounts.password.incorrect": "is incorrect",
  "accounts.password.link": "Change your password",
  "accounts.password.title": "Change your password",
  "accounts.password.set_title": "Set a password",
  "accounts.field.current_password": "Current password",
  "accounts.password.new": "New password",
  "accounts.password.confirmation": "Confirm the new password",
  "accounts.password.sign_out_others": "Sign out my other sessions",
  "accounts.password.submit": "Change password",

  // Changing the email address, confirmed by the new one.
  "accounts.email_change.sent": "Check your new address for a confirmation link.",
  "accounts.email_change.changed": "Your email address has been changed.",
  "accounts.email_change.invalid": "That email change link is invalid or has expired.",
  "accounts.email_change.taken": "Another account has taken that email address meanwhile.",
  "accounts.email_change.link": "Change your email address",
  "accounts.email_change.title": "Change your email address",
  "accounts.email_change.new_email": "New email address",
  "accounts.email_change.submit": "Send a confirmation link",
  "accounts.email_change.confirm_title": "Confirm your new email address",
  "accounts.email_change.confirm_intro": "Make {email} the address of your account?",
  "accounts.email_change.confirm_submit": "Confirm",

  // The profile on the account page.
  "accounts.field.name": "Name",
  "accounts.profile.save": "Save",
  "accounts.profile.updated": "Your profile has been updated.",

  // The account mails.
  "accounts.mail.confirmation_subject": "Confirm your email address",
  "accounts.mail.confirmation_intro":
    "Please confirm that {email} is your email address by opening this link:",
  "accounts.mail.confirmation_ignore": "If you did not sign up, you can ignore this email.",
  "accounts.mail.magic_link_subject": "Your sign-in link",
  "accounts.mail.magic_link_intro": "Open this link to sign in as {email}:",
  "accounts.mail.magic_link_ignore": "If you did not ask to sign in, you can ignore this email.",
  "accounts.mail.password_reset_subject": "Reset your password",
  "accounts.mail.password_reset_intro": "Open this link to choose a new password for {email}:",
  "accounts.mail.password_reset_ignore":
    "If you did not ask for a password reset, you can ignore this email.",
  "accounts.mail.validity": "The link is valid for {lifetime} and works once.",
  "accounts.mail.email_code_subject": "Your sign-in code",
  "accounts.mail.email_code_intro": "Your code to sign in as {email}:",
  "accounts.mail.email_code_validity": "The code is valid for {lifetime} and works once.",
  "accounts.mail.email_code_ignore":
    "If you did not ask to sign in, you can ignore this email: no one can use the code without it.",
  "accounts.mail.password_changed_subject": "Your password was changed",
  "accounts.mail.password_changed_intro":
    "The password of {email} was changed on {when} from {browser}.",
  "accounts.mail.password_changed_not_you": "If this wasn't you, reset your password now: {link}",
  "accounts.mail.email_change_subject": "Confirm your new email address",
  "accounts.mail.email_change_intro": "Open this link to make {email} the address of your account:",
  "accounts.mail.email_change_ignore":
    "If you did not ask for this change, you can ignore this email: nothing changes without the link.",
  "accounts.mail.email_changing_subject": "Your email address is being changed",
  "accounts.mail.email_changing_intro":
    "Someone signed in to your account asked to change its address to {email}. Nothing changes until that address confirms it.",
  "accounts.mail.email_changing_not_you": "If this wasn't you, reset your password now: {link}",
  "accounts.mail.one_hour": "1 hour",
  "accounts.mail.hours": "{hours} hours",
  "accounts.mail.one_minute": "1 minute",
  "accounts.mail.minutes": "{minutes} minutes",
});

/** An id of {@link accountMessages}. */
export type AccountMessageId = MessageIdOf<typeof accountMessages>;
