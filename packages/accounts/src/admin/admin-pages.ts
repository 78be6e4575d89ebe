import { formatTimestamp, html, joinHtml, type Locale, type SafeHtml } from "@tessera/core";
import { httpMessages, type Layout, type PageContext } from "@tessera/http";
import { activityTable } from "../audit/activity-page.js";
import { labelledInput } from "../html/form-fields.js";
import {
  accountErrorSummary,
  accountPage,
  accountText,
  pageLink,
  postForm,
} from "../html/form-page-kit.js";
import type { FieldErrors } from "../messages.js";
import { isBanned, type User } from "../users/user.js";
import type { AdminUserFacts } from "./user-facts.js";

/** Where the operators' pages live. */
export const ADMIN_USERS_PATH = "/admin/users";

/** The operators' pages: `defaultAdminPages(layout)` gives ours. */
export interface AdminPages {
  /** `/admin/users`: the search form and the users found, newest first. */
  users(view: {
    readonly context: PageContext;
    readonly query: string;
    readonly users: readonly User[];
    readonly olderHref: string | undefined;
    readonly now: number;
  }): string;
  /** `/admin/users/{id}`: one user, their facts, the ban and sign-out forms. */
  user(view: {
    readonly context: PageContext;
    readonly user: User;
    readonly facts: AdminUserFacts;
    readonly now: number;
    /** The ban form as typed, with its messages, after a refusal. */
    readonly ban?:
      | {
          readonly reason: string;
          readonly until: string;
          readonly errors: FieldErrors;
        }
      | undefined;
    readonly error?: string | undefined;
  }): string;
  /** The 404 of a user that does not exist, and of these pages to anyone but an operator. */
  notFound(view: { readonly context: PageContext }): string;
}

function status(user: User, now: number, locale: Locale | undefined): string {
  const text = accountText(locale);
  if (!isBanned(user, now)) return text("accounts.admin.active");
  const until = user.ban?.until;
  return until == null
    ? text("accounts.admin.banned")
    : text("accounts.admin.banned_until", { until: `${formatTimestamp(until)} UTC` });
}

function role(user: User, admin: boolean, locale: Locale | undefined): string {
  const text = accountText(locale);
  return admin || user.role === "admin"
    ? text("accounts.admin.role_admin")
    : text("accounts.admin.role_user");
}

function userRow(user: User, now: number, locale: Locale | undefined): SafeHtml {
  return html`<tr>
<th scope="row"><a href="${ADMIN_USERS_PATH}/${user.id}">${user.email}</a></th>
<td>${role(user, false, locale)}</td>
<td>${status(user, now, locale)}</td>
<td>${formatTimestamp(user.createdAt)} UTC</td>
</tr>`;
}

function fact(label: string, value: string): SafeHtml {
  return html`<dt>${label}</dt><dd>${value}</dd>`;
}

/** Our operators' pages, in the app's layout and the page's locale. */
export function defaultAdminPages(layout: Layout): AdminPages {
  return {
    users({ context, query, users, olderHref, now }) {
      const { locale } = context;
      const text = accountText(locale);
      const table =
        users.length === 0
          ? html`<p>${text("accounts.admin.none")}</p>`
          : html`<table class="admin-users">
<thead><tr><th scope="col">${text("accounts.admin.email")}</th><th scope="col">${text("accounts.admin.role")}</th><th scope="col">${text("accounts.admin.status")}</th><th scope="col">${text("accounts.admin.joined")}</th></tr></thead>
<tbody>
${joinHtml(
  users.map((user) => userRow(user, now, locale)),
  "\n",
)}
</tbody>
</table>`;
      return accountPage(
        layout,
        context,
        text("accounts.admin.users_title"),
        html`<form method="get" action="${ADMIN_USERS_PATH}" role="search">
<div class="field"><label for="field-query">${text("accounts.admin.search_label")}</label>
<input id="field-query" name="query" type="search" value="${query}"></div>
<button type="submit">${text("accounts.admin.search")}</button>
</form>
${table}
${olderHref !== undefined && pageLink(olderHref, text("accounts.admin.older"))}`,
      );
    },

    user({ context, user, facts, now, ban, error }) {
      const { locale } = context;
      const text = accountText(locale);
      const base = `${ADMIN_USERS_PATH}/${user.id}`;
      const mfa = facts.mfa
        ? text(facts.mfa.totp ? "accounts.admin.yes" : "accounts.admin.no")
        : text("accounts.admin.unknown");
      const banForm = postForm(
        `${base}/ban`,
        [
          labelledInput({
            name: "reason",
            label: text("accounts.admin.reason"),
            type: "text",
            autocomplete: "off",
            value: ban?.reason ?? "",
            errors: ban?.errors.reason ?? [],
            locale,
          }),
          labelledInput({
            name: "until",
            label: text("accounts.admin.until"),
            type: "text",
            autocomplete: "off",
            value: ban?.until ?? "",
            required: false,
            errors: ban?.errors.until ?? [],
            locale,
          }),
        ],
        text("accounts.admin.ban"),
      );
      return accountPage(
        layout,
        context,
        user.email,
        html`${error !== undefined && html`<div class="error-summary" role="alert"><p>${error}</p></div>`}
${ban && accountErrorSummary(ban.errors, locale)}
<dl class="admin-facts">
${fact(text("accounts.admin.role"), role(user, facts.admin, locale))}
${fact(text("accounts.admin.status"), status(user, now, locale))}
${user.ban != null && fact(text("accounts.admin.reason"), user.ban.reason)}
${fact(text("accounts.admin.confirmed"), user.confirmedAt === null ? text("accounts.admin.no") : `${formatTimestamp(user.confirmedAt)} UTC`)}
${fact(text("accounts.admin.joined"), `${formatTimestamp(user.createdAt)} UTC`)}
${fact(text("accounts.admin.second_factor"), mfa)}
${fact(text("accounts.admin.passkeys"), facts.mfa ? String(facts.mfa.passkeys) : text("accounts.admin.unknown"))}
${fact(text("accounts.admin.devices"), facts.devices === null ? text("accounts.admin.unknown") : String(facts.devices))}
${fact(text("accounts.admin.api_keys"), String(facts.apiKeys))}
</dl>
${
  isBanned(user, now)
    ? postForm(`${base}/unban`, [], text("accounts.admin.unban"))
    : facts.admin
      ? html`<p>${text("accounts.admin.not_bannable")}</p>`
      : html`<h2>${text("accounts.admin.ban_title")}</h2>\n${banForm}`
}
${postForm(`${base}/sessions/revoke`, [], text("accounts.admin.sign_out_everywhere"))}
${!facts.admin && !isBanned(user, now) && postForm(`${base}/impersonate`, [], text("accounts.admin.impersonate"))}
<h2>${text("accounts.admin.recent_activity")}</h2>
${activityTable(facts.recent, locale)}
${pageLink(ADMIN_USERS_PATH, text("accounts.admin.back"))}`,
      );
    },

    notFound({ context }) {
      const title = httpMessages.text(context.locale, "http.not_found");
      return accountPage(layout, context, title, html`<p>${title}.</p>`);
    },
  };
}
