/**
 * The English texts of changing the password while signed in: the page, the flash and the notice
 * mail, and the breach refusal of any new password; `accountMessages` holds them all.
 */
export const passwordTexts = {
  "accounts.password.changed": "Your password has been changed.",
  "accounts.password.incorrect": "is incorrect",
  "accounts.password.breached": "has appeared in a data breach; choose another",
  "accounts.password.link": "Change your password",
  "accounts.password.title": "Change your password",
  "accounts.password.set_title": "Set a password",
  "accounts.password.new": "New password",
  "accounts.password.confirmation": "Confirm the new password",
  "accounts.password.sign_out_others": "Sign out my other sessions",
  "accounts.password.submit": "Change password",
  "accounts.mail.password_changed_subject": "Your password was changed",
  "accounts.mail.password_changed_intro":
    "The password of {email} was changed on {when} from {browser}.",
  "accounts.mail.password_changed_not_you": "If this wasn't you, reset your password now: {link}",
} as const;
