import { html, joinHtml, type Locale } from "@tessera/core";
import { oauthMessages } from "./oauth-messages.js";
import type { OAuthProvider } from "./provider.js";

/**
 * The login page's provider buttons: per provider, a form that POSTs to `/auth/<name>` with a
 * `Continue with <label>` button, in `locale` (English when absent). An empty string without
 * providers. The forms carry no token: the app's cross-site request check guards POSTs. Give
 * `(locale) => renderProviderButtons(providers, locale)` to `defaultAccountPages`'
 * `loginExtrasHtml`, so the buttons follow the page's language.
 */
export function renderProviderButtons(
  providers: readonly Pick<OAuthProvider, "name" | "label">[],
  locale?: Locale,
): string {
  const forms = providers.map((provider) => {
    const label = oauthMessages.text(locale, "oauth.continue_with", { provider: provider.label });
    return html`<form method="post" action="/auth/${encodeURIComponent(provider.name)}"><button type="submit">${label}</button></form>`;
  });
  return joinHtml(forms, "\n").toString();
}
