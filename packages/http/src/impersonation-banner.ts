import { html, type SafeHtml } from "@tessera/core";
import { httpMessages } from "./http-messages.js";
import type { PageContext } from "./page-layout.js";

/** Where the impersonation banner's button posts to stop (accounts' admin pages serve it). */
export const IMPERSONATION_STOP_PATH = "/admin/impersonation/stop";

/**
 * The banner every page shows while an operator acts as the signed-in user
 * (`context.impersonating`): who they are acting as, and a button that stops. Nothing for
 * anyone else. Put it at the top of a layout's `<body>`, as {@link plainLayout} does.
 */
export function impersonationBanner(context: PageContext): SafeHtml {
  if (!context.impersonating) return html``;
  const { locale } = context;
  const email = context.signedInEmail ?? "";
  return html`<div class="impersonation-banner" role="note">
<p>${httpMessages.text(locale, "http.impersonating", { email })}</p>
<form method="post" action="${IMPERSONATION_STOP_PATH}"><button type="submit">${httpMessages.text(locale, "http.stop_impersonating")}</button></form>
</div>`;
}
