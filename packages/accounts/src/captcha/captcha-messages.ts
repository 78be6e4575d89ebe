/** The English texts of the captcha: the refusal, its page; `accountMessages` holds them all. */
export const captchaTexts = {
  "accounts.captcha_failed": "The captcha was not solved; try again.",
  "accounts.captcha_failed_title": "Captcha not solved",
  "accounts.captcha_try_again": "Back to the form",
} as const;
