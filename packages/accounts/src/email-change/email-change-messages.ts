/**
 * The English texts of changing the email address: the pages, flashes and both mails;
 * `accountMessages` holds them all.
 */
export const emailChangeTexts = {
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
  "accounts.mail.email_change_subject": "Confirm your new email address",
  "accounts.mail.email_change_intro": "Open this link to make {email} the address of your account:",
  "accounts.mail.email_change_ignore":
    "If you did not ask for this change, you can ignore this email: nothing changes without the link.",
  "accounts.mail.email_changing_subject": "Your email address is being changed",
  "accounts.mail.email_changing_intro":
    "Someone signed in to your account asked to change its address to {email}. Nothing changes until that address confirms it.",
  "accounts.mail.email_changing_not_you": "If this wasn't you, reset your password now: {link}",
} as const;
