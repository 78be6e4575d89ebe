/** The English texts of the admin routes; `accountMessages` holds them all. */
export const adminTexts = {
  "accounts.admin.not_bannable": "An administrator cannot be banned: revoke the role first.",
  "accounts.admin.until_past": "must be a time in the future",
} as const;
