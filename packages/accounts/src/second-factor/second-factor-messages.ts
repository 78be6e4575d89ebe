/**
 * The English texts of second factors: the second step's page, the security page and the JSON
 * refusals of TOTP; `accountMessages` holds them all.
 */
export const secondFactorTexts = {
  "accounts.totp_already_enabled": "Two-factor codes are already on; turn them off first.",
  "accounts.totp_not_pending": "No two-factor setup is waiting for a code.",
  "accounts.totp_not_enabled": "Two-factor codes are not on.",
  "accounts.second_factor.title": "Two-factor authentication",
  "accounts.second_factor.prompt":
    "Enter the 6-digit code from your authenticator app, or one of your backup codes.",
  "accounts.second_factor.code_label": "Code",
  "accounts.second_factor.submit": "Verify",
  "accounts.second_factor.invalid": "That code is not valid.",
  "accounts.second_factor.expired":
    "Your sign-in took too long or had too many wrong codes. Log in again.",
  "accounts.second_factor.passkey": "Use a passkey",
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
  "accounts.factor.password": "Password",
  "accounts.factor.magic_link": "Sign-in link",
  "accounts.factor.email_code": "Sign-in code",
  "accounts.factor.oauth": "Sign-in provider",
  "accounts.factor.totp": "Authenticator code",
  "accounts.factor.backup_code": "Backup code",
  "accounts.factor.passkey": "Passkey",
  "accounts.factor.user_verification": "Verified on the device",
} as const;
