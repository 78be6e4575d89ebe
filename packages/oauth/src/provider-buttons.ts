import { escapeHtml } from "@tessera/http";
import type { OAuthProvider } from "./provider.js";

/**
 * The login page's provider buttons: per provider, a form that POSTs to `/auth/<name>` with a
 * `Continue with <label>` button. An empty string without providers. The forms carry no token:
 * the app's cross-site request check guards POSTs.
 */
export function renderProviderButtons(
  providers: readonly Pick<OAuthProvider, "name" | "label">[],
): string {
  return providers
    .map(
      (provider) =>
        `<form method="post" action="/auth/${encodeURIComponent(provider.name)}"><button type="submit">Continue with ${escapeHtml(provider.label)}</button></form>`,
    )
    .join("\n");
}
