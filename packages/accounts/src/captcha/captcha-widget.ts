import { html, type SafeHtml } from "@tessera/core";
import type { PageHeaderOptions, PolicyDirectives } from "@tessera/http";
import { CAPTCHA_PROVIDERS, type CaptchaProviderName } from "./captcha-providers.js";

/** What a form needs to show the captcha: the provider, and this site's public key with it. */
export interface CaptchaWidget {
  readonly provider: CaptchaProviderName;
  readonly siteKey: string;
}

/**
 * The widget of a protected form, to put inside its `<form>`: the provider's `<div>` with the
 * site key (the provider's script fills in the token field there) and its script, with the
 * page's CSP nonce. Nothing without a widget.
 */
export function captchaWidgetHtml(
  widget: CaptchaWidget | undefined,
  cspNonce: string | undefined,
): SafeHtml {
  if (!widget) return html``;
  const provider = CAPTCHA_PROVIDERS[widget.provider];
  const nonce = cspNonce !== undefined && html` nonce="${cspNonce}"`;
  return html`<div class="${provider.widgetClass}" data-sitekey="${widget.siteKey}"></div>
<script src="${provider.scriptUrl}" async defer${nonce}></script>`;
}

/**
 * `pageHeaders` with the sources the provider's widget needs added to the pages' policy (its
 * script's origin, its frames, for hCaptcha its styles and requests), whatever the app already
 * extends.
 */
export function captchaPageHeaders(
  pageHeaders: PageHeaderOptions | undefined,
  provider: CaptchaProviderName,
): PageHeaderOptions {
  const extended: Record<string, readonly string[]> = { ...pageHeaders?.extendPolicy };
  for (const [directive, sources] of Object.entries(CAPTCHA_PROVIDERS[provider].policySources)) {
    extended[directive] = [...new Set([...(extended[directive] ?? []), ...sources])];
  }
  return { ...pageHeaders, extendPolicy: extended satisfies PolicyDirectives };
}
