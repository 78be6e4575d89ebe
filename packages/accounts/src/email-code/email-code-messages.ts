/**
 * The English texts of emailed sign-in codes: the answer and the mail; `accountMessages` holds
 * them all.
 */
export const emailCodeTexts = {
  "accounts.email_code_sent": "If an account uses that address, a sign-in code is on its way.",
  "accounts.mail.email_code_subject": "Your sign-in code",
  "accounts.mail.email_code_intro": "Your code to sign in as {email}:",
  "accounts.mail.email_code_validity": "The code is valid for {lifetime} and works once.",
  "accounts.mail.email_code_ignore":
    "If you did not ask to sign in, you can ignore this email: no one can use the code without it.",
} as const;
