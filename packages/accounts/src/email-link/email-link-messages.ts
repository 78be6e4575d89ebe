/**
 * The English texts of emailed links (sign-in, password reset, confirmation): their pages, flashes
 * and mails; `accountMessages` holds them all.
 */
export const emailLinkTexts = {
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
  "accounts.confirmation_mismatch": "doesn't match Password",
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
  "accounts.mail.one_hour": "1 hour",
  "accounts.mail.hours": "{hours} hours",
  "accounts.mail.one_minute": "1 minute",
  "accounts.mail.minutes": "{minutes} minutes",
} as const;
