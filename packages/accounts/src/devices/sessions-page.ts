import type { RefreshTokenFamily } from "@tessera/bearer";
import { formatTimestamp, html, joinHtml, type Locale, type SafeHtml } from "@tessera/core";
import type { Layout, PageContext } from "@tessera/http";
import { httpMessages } from "@tessera/http";
import { browserName, type TrackedSession } from "@tessera/session";
import { type AccountMessageId, accountMessages } from "../account-messages.js";
import { accountPage, accountText, pageLink, postForm } from "../html/form-page-kit.js";
import type { SignInFactor } from "../sign-in/sign-in-factors.js";

/** The signed-in devices pages' HTML. `defaultSessionPages(layout)` gives ours. */
export interface SessionPages {
  /**
   * The list at `/account/sessions`: this device first, then the other browsers, last seen
   * first; then the apps signed in with a refresh token, each with its end button.
   */
  sessions(view: {
    context: PageContext;
    sessions: readonly TrackedSession[];
    /** The id of the session of the browser looking at the page. */
    currentId: number;
    /**
     * The apps signed in with a refresh token (see `listAppSignIns`), newest first; undefined or
     * empty: no apps section.
     */
    apps?: readonly RefreshTokenFamily[] | undefined;
  }): string;
  /** The 404 of an end action for a session the user does not have. */
  notFound(view: { context: PageContext }): string;
}

function renderTime(epochMs: number): SafeHtml {
  const text = formatTimestamp(epochMs);
  return html`<time datetime="${text.replace(" ", "T")}Z">${text} UTC</time>`;
}

/**
 * The row's label in `locale`: rows store `browserName`'s English label, so one it wrote is
 * written again from the stored `User-Agent` in the page's language; any other (a store's own)
 * is shown as stored.
 */
function deviceLabel(session: TrackedSession, locale: Locale | undefined): string {
  if (locale === undefined || session.browser !== browserName(session.userAgent)) {
    return session.browser;
  }
  return browserName(session.userAgent, locale);
}

// A record over the factor type: a factor added to it must be labelled here too.
const FACTOR_LABELS: Readonly<Record<SignInFactor, AccountMessageId>> = {
  password: "accounts.factor.password",
  magic_link: "accounts.factor.magic_link",
  email_code: "accounts.factor.email_code",
  oauth: "accounts.factor.oauth",
  totp: "accounts.factor.totp",
  backup_code: "accounts.factor.backup_code",
  passkey: "accounts.factor.passkey",
  user_verification: "accounts.factor.user_verification",
};

/** What signed the session in, in `locale`: "Password + Authenticator code". */
function factorsLabel(factors: readonly string[], locale: Locale | undefined): string {
  if (factors.length === 0) {
    return accountMessages.text(locale, "accounts.sessions.factors_unknown");
  }
  return factors
    .map((factor) => {
      const id = Object.hasOwn(FACTOR_LABELS, factor)
        ? FACTOR_LABELS[factor as SignInFactor]
        : undefined;
      return id ? accountMessages.text(locale, id) : factor;
    })
    .join(" + ");
}

function renderRow(
  session: TrackedSession,
  current: boolean,
  locale: Locale | undefined,
): SafeHtml {
  const text = accountText(locale);
  const headerId = `session-${session.id}`;
  // The button's description names the device, so a screen reader says which one it ends.
  const action = current
    ? html`<strong>${text("accounts.sessions.this_device")}</strong>`
    : html`<form method="post" action="/account/sessions/${session.id}/delete">
<button type="submit" aria-describedby="${headerId}">${text("accounts.sessions.sign_out")}</button>
</form>`;
  return html`<tr${current && html` aria-current="true"`}>
<th scope="row" id="${headerId}">${deviceLabel(session, locale)}</th>
<td>${session.ipAddress ?? text("accounts.sessions.unknown_address")}</td>
<td>${renderTime(session.lastSeenAt)}</td>
<td>${factorsLabel(session.factors, locale)}</td>
<td>${action}</td>
</tr>`;
}

function renderAppRow(app: RefreshTokenFamily, locale: Locale | undefined): SafeHtml {
  const text = accountText(locale);
  const headerId = `app-${app.id}`;
  return html`<tr>
<th scope="row" id="${headerId}">${app.userAgent ?? text("accounts.sessions.unknown_app")}</th>
<td>${app.ipAddress ?? text("accounts.sessions.unknown_address")}</td>
<td>${renderTime(app.createdAt)}</td>
<td>${renderTime(app.lastUsedAt)}</td>
<td>${factorsLabel(app.factors, locale)}</td>
<td><form method="post" action="/account/sessions/apps/${app.id}/delete">
<button type="submit" aria-describedby="${headerId}">${text("accounts.sessions.sign_out")}</button>
</form></td>
</tr>`;
}

/** The apps section: a heading and a table of the app sign-ins; nothing without any. */
function renderApps(apps: readonly RefreshTokenFamily[], locale: Locale | undefined): SafeHtml {
  if (apps.length === 0) return html``;
  const text = accountText(locale);
  const rows = apps.map((app) => renderAppRow(app, locale));
  return html`<h2 id="apps-title">${text("accounts.sessions.apps_title")}</h2>
<p>${text("accounts.sessions.apps_intro")}</p>
<table class="sessions" aria-labelledby="apps-title">
<thead><tr><th scope="col">${text("accounts.sessions.app")}</th><th scope="col">${text("accounts.sessions.ip_address")}</th><th scope="col">${text("accounts.sessions.signed_in_at")}</th><th scope="col">${text("accounts.sessions.last_used")}</th><th scope="col">${text("accounts.sessions.signed_in_with")}</th><th scope="col">${text("accounts.sessions.action")}</th></tr></thead>
<tbody>
${joinHtml(rows, "\n")}
</tbody>
</table>
`;
}

/** Our pages for signed-in devices: a table in the app's layout, in the page's locale. */
export function defaultSessionPages(layout: Layout): SessionPages {
  return {
    sessions: ({ context, sessions, currentId, apps = [] }) => {
      const { locale } = context;
      const text = accountText(locale);
      const others = sessions.filter((session) => session.id !== currentId).length + apps.length;
      const rows = sessions.map((session) => renderRow(session, session.id === currentId, locale));
      return accountPage(
        layout,
        context,
        text("accounts.sessions.title"),
        html`<p>${text("accounts.sessions.intro")}</p>
<table class="sessions">
<thead><tr><th scope="col">${text("accounts.sessions.browser")}</th><th scope="col">${text("accounts.sessions.ip_address")}</th><th scope="col">${text("accounts.sessions.last_seen")}</th><th scope="col">${text("accounts.sessions.signed_in_with")}</th><th scope="col">${text("accounts.sessions.action")}</th></tr></thead>
<tbody>
${joinHtml(rows, "\n")}
</tbody>
</table>
${renderApps(apps, locale)}${others > 0 && postForm("/account/sessions/others/delete", [], text("accounts.sign_out_other_sessions"))}
${pageLink("/account", text("accounts.sessions.back_to_account"))}`,
      );
    },

    notFound: ({ context }) => {
      const text = accountText(context.locale);
      return accountPage(
        layout,
        context,
        httpMessages.text(context.locale, "http.not_found"),
        html`<p>${text("accounts.sessions.not_found")}</p>
${pageLink("/account/sessions", text("accounts.sessions.see_devices"))}`,
      );
    },
  };
}
