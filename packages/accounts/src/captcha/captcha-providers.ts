/** The captcha services accounts can verify tokens of. */
export type CaptchaProviderName = "turnstile" | "hcaptcha";

/** What accounts knows of one captcha service: where to verify, and how its widget is named. */
export interface CaptchaProvider {
  readonly name: CaptchaProviderName;
  /** The documented `siteverify` address (a form-encoded POST answered with JSON). */
  readonly verifyUrl: string;
  /** The form field the widget fills in with its token. */
  readonly formField: string;
  /** The class of the `<div>` the provider's script turns into the widget. */
  readonly widgetClass: string;
  /** The script that renders the widget. */
  readonly scriptUrl: string;
  /**
   * The Content-Security-Policy sources the widget needs besides the nonce of its script tag
   * (the frames it opens, the script it loads), from the provider's documentation.
   */
  readonly policySources: Readonly<Record<string, readonly string[]>>;
  /** The longest token sent to be verified; a longer one is refused without a request. */
  readonly maximumTokenLength: number;
}

const HCAPTCHA_ORIGINS = ["https://hcaptcha.com", "https://*.hcaptcha.com"];
// A directive added to the policy no longer falls back to `default-src 'self'`: the page's own
// frames and requests (the passkey buttons fetch their options) keep working with 'self'.
const TURNSTILE_ORIGIN = "https://challenges.cloudflare.com";

/**
 * Cloudflare Turnstile and hCaptcha, as their documentation describes them (the policy
 * sources: Cloudflare's "Content Security Policy" page, hCaptcha's CSP section).
 */
export const CAPTCHA_PROVIDERS: Readonly<Record<CaptchaProviderName, CaptchaProvider>> = {
  turnstile: {
    name: "turnstile",
    verifyUrl: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
    formField: "cf-turnstile-response",
    widgetClass: "cf-turnstile",
    scriptUrl: "https://challenges.cloudflare.com/turnstile/v0/api.js",
    policySources: {
      "script-src": [TURNSTILE_ORIGIN],
      "frame-src": ["'self'", TURNSTILE_ORIGIN],
    },
    // Documented: "Maximum length: 2048 characters".
    maximumTokenLength: 2048,
  },
  hcaptcha: {
    name: "hcaptcha",
    verifyUrl: "https://hcaptcha.com/siteverify",
    formField: "h-captcha-response",
    widgetClass: "h-captcha",
    scriptUrl: "https://js.hcaptcha.com/1/api.js",
    policySources: {
      "script-src": HCAPTCHA_ORIGINS,
      "frame-src": ["'self'", ...HCAPTCHA_ORIGINS],
      "style-src": HCAPTCHA_ORIGINS,
      "connect-src": ["'self'", ...HCAPTCHA_ORIGINS],
    },
    // Not documented: a generous bound that still keeps a request to the provider small.
    maximumTokenLength: 8192,
  },
};
