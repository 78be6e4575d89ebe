/** The English texts of the profile on the account page; `accountMessages` holds them all. */
export const profileTexts = {
  "accounts.field.name": "Name",
  "accounts.profile.save": "Save",
  "accounts.profile.updated": "Your profile has been updated.",
} as const;
