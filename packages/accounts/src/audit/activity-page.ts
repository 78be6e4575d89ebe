import { formatTimestamp, html, joinHtml, type Locale, type SafeHtml } from "@tessera/core";
import type { Layout, PageContext } from "@tessera/http";
import { browserName } from "@tessera/session";
import { type AccountMessageId, accountMessages } from "../account-messages.js";
import { accountPage, accountText, pageLink } from "../html/form-page-kit.js";
import type { AuditEvent } from "./audit-events.js";

/** The activity page's HTML: `defaultActivityPage(layout)` gives ours. */
export type ActivityPage = (view: {
  readonly context: PageContext;
  readonly events: readonly AuditEvent[];
  /** The next page's address, when older events follow. */
  readonly olderHref: string | undefined;
}) => string;

/** The label of an event in `locale`: its own for ours, the type itself for another's. */
function eventLabel(event: AuditEvent, locale: Locale | undefined): string {
  const id = `accounts.activity.${event.type}`;
  return Object.hasOwn(accountMessages.english, id)
    ? accountMessages.text(locale, id as AccountMessageId)
    : event.type;
}

function renderRow(event: AuditEvent, locale: Locale | undefined): SafeHtml {
  const text = accountText(locale);
  const when = formatTimestamp(event.at);
  // A change someone else made: an operator, an organization's owner.
  const byOther = event.actorId !== null && event.actorId !== event.userId;
  return html`<tr>
<td><time datetime="${when.replace(" ", "T")}Z">${when} UTC</time></td>
<td>${eventLabel(event, locale)}${byOther && html` (${text("accounts.activity.by_other")})`}</td>
<td>${event.userAgent === null ? text("accounts.activity.unknown") : browserName(event.userAgent, locale)}</td>
<td>${event.ip ?? text("accounts.activity.unknown")}</td>
</tr>`;
}

/** A table of audit events, newest first, or a sentence saying there is none. */
export function activityTable(events: readonly AuditEvent[], locale: Locale | undefined): SafeHtml {
  const text = accountText(locale);
  if (events.length === 0) return html`<p>${text("accounts.activity.none")}</p>`;
  return html`<table class="activity">
<thead><tr><th scope="col">${text("accounts.activity.when")}</th><th scope="col">${text("accounts.activity.event")}</th><th scope="col">${text("accounts.activity.browser")}</th><th scope="col">${text("accounts.activity.ip_address")}</th></tr></thead>
<tbody>
${joinHtml(
  events.map((event) => renderRow(event, locale)),
  "\n",
)}
</tbody>
</table>`;
}

/** Our activity page: a table in the app's layout, newest first, in the page's locale. */
export function defaultActivityPage(layout: Layout): ActivityPage {
  return ({ context, events, olderHref }) => {
    const { locale } = context;
    const text = accountText(locale);
    return accountPage(
      layout,
      context,
      text("accounts.activity.title"),
      html`<p>${text("accounts.activity.intro")}</p>
${activityTable(events, locale)}
${olderHref !== undefined && pageLink(olderHref, text("accounts.activity.older"))}
${pageLink("/account", text("accounts.activity.back_to_account"))}`,
    );
  };
}
