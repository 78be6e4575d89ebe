import { formatTimestamp, html, type MessageParams, type SafeHtml } from "@tessera/core";
import type { Layout, PageContext } from "@tessera/http";
import type { Invitation, Member, Organization, OrganizationWithRole } from "../organization.js";
import type { FieldErrors } from "./organization-fields.js";
import { type OrganizationMessageId, organizationMessages } from "./organization-messages.js";

/** A form as it was sent, with the messages of its refused fields (already translated). */
export interface PageForm {
  readonly values: Readonly<Record<string, string>>;
  readonly errors: FieldErrors;
}

/** An empty form. */
export const EMPTY_FORM: PageForm = { values: {}, errors: {} };

function sayer(context: PageContext) {
  return (id: OrganizationMessageId, params?: MessageParams): SafeHtml =>
    html`${organizationMessages.text(context.locale, id, params)}`;
}

/** A labelled input, with its messages tied to it for screen readers. */
function textInput(
  form: PageForm,
  name: string,
  label: SafeHtml,
  attributes: { readonly type?: string | undefined; readonly required?: boolean | undefined } = {},
): SafeHtml {
  const errors = form.errors[name] ?? [];
  const errorId = `${name}-error`;
  return html`<p><label for="${name}">${label}</label>
<input id="${name}" name="${name}" type="${attributes.type ?? "text"}" value="${form.values[name] ?? ""}"${attributes.required ? html` required` : ""}${errors.length > 0 ? html` aria-invalid="true" aria-describedby="${errorId}"` : ""}>
${errors.length > 0 && html`<span id="${errorId}" class="field-error">${errors.join(" ")}</span>`}</p>`;
}

/** `/orgs`: the user's organizations with their role, and the form that creates one. */
export function renderOrganizationsPage(page: {
  readonly layout: Layout;
  readonly context: PageContext;
  readonly path: string;
  readonly memberships: readonly OrganizationWithRole[];
  readonly form: PageForm;
}): string {
  const { context, form } = page;
  const say = sayer(context);
  const list =
    page.memberships.length === 0
      ? html`<p>${say("organizations.page_none")}</p>`
      : html`<ul>${page.memberships.map(
          ({ organization, role }) =>
            html`<li><a href="${page.path}/${organization.slug}">${organization.name}</a> (${role})</li>`,
        )}</ul>`;
  const title = organizationMessages.text(context.locale, "organizations.page_title");
  const main = html`<h1>${title}</h1>
${list}
<h2>${say("organizations.create_heading")}</h2>
<form method="post" action="${page.path}">
${textInput(form, "name", say("organizations.name_label"), { required: true })}
${textInput(form, "slug", say("organizations.slug_label"))}
<button type="submit">${say("organizations.create_button")}</button>
</form>`;
  return page.layout({ title, mainHtml: main.toString(), context });
}

/** What an organization's page shows of it, as the member's role allows. */
export interface OrganizationPageInput {
  readonly layout: Layout;
  readonly context: PageContext;
  /** `/orgs/<slug>`: the page's own path, under which its forms post. */
  readonly path: string;
  readonly organization: Organization;
  readonly role: string;
  readonly members: readonly Member[];
  /**
   * What the member may do to the others: the roles they may give or take away (those that may
   * do no more than theirs), whether they may change roles and remove members; `self` is their
   * own user id (they leave instead).
   */
  readonly managing?:
    | {
        readonly roles: readonly string[];
        readonly changeRole: boolean;
        readonly remove: boolean;
        readonly self: number;
      }
    | undefined;
  /**
   * The pages under the organization's the member may open (its record pages, its webhooks):
   * where, and the link's text.
   */
  readonly records?: readonly { readonly href: string; readonly text: string }[] | undefined;
  /**
   * The rename form (`name`, `slug`) as sent, or with the organization's own, for a role with
   * `organization:update`; else undefined.
   */
  readonly settings?: PageForm | undefined;
  /**
   * The delete form (`confirm`: the slug typed again) as sent, for a role with
   * `organization:delete`; else undefined.
   */
  readonly deleting?: PageForm | undefined;
  /** The pending invitations and the invite form, for a role that may invite; else undefined. */
  readonly inviting:
    | {
        readonly invitations: readonly Invitation[];
        /** The roles this member may give. */
        readonly roles: readonly string[];
        readonly form: PageForm;
      }
    | undefined;
}

/**
 * `/orgs/<slug>`: the members and their roles, pending invitations, inviting, renaming,
 * leaving, deleting.
 */
export function renderOrganizationPage(page: OrganizationPageInput): string {
  const { context, organization } = page;
  const say = sayer(context);
  const managing = page.managing;
  const acts = managing !== undefined && (managing.changeRole || managing.remove);
  const members = html`<table>
<thead><tr><th>${say("organizations.member_email")}</th><th>${say("organizations.member_name")}</th><th>${say("organizations.member_role")}</th><th>${say("organizations.member_joined")}</th>${acts ? html`<th></th>` : ""}</tr></thead>
<tbody>${page.members.map(
    (member) =>
      html`<tr><td>${member.email}</td><td>${member.name ?? ""}</td><td>${member.role}</td><td>${formatTimestamp(member.joinedAt)}</td>${acts ? html`<td>${memberActions(page.path, member, managing, say)}</td>` : ""}</tr>`,
  )}</tbody>
</table>`;
  const inviting = page.inviting && renderInviting(page.path, page.inviting, say);
  const records = page.records ?? [];
  const main = html`<h1>${organization.name}</h1>
<p>${say("organizations.your_role", { role: page.role })}</p>
${records.length > 0 ? html`<nav><ul>${records.map((link) => html`<li><a href="${link.href}">${link.text}</a></li>`)}</ul></nav>` : ""}
<h2>${say("organizations.members_heading")}</h2>
${members}
${inviting ?? ""}
${page.settings ? renderSettings(page.path, page.settings, say) : ""}
<form method="post" action="${page.path}/leave"><button type="submit">${say("organizations.leave_button")}</button></form>
${page.deleting ? renderDeleting(page.path, organization, page.deleting, say) : ""}`;
  return page.layout({ title: organization.name, mainHtml: main.toString(), context });
}

/**
 * The forms of a member's row for one who manages them: a role to give (among those they may
 * give) and a removal, for a member whose role may do no more than theirs; none on their own
 * row.
 */
function memberActions(
  path: string,
  member: Member,
  managing: NonNullable<OrganizationPageInput["managing"]>,
  say: ReturnType<typeof sayer>,
): SafeHtml {
  // Their own row, and a member whose role may do more than theirs: nothing to do.
  if (member.userId === managing.self || !managing.roles.includes(member.role)) return html``;
  const memberPath = `${path}/members/${member.userId}`;
  const label = say("organizations.member_role");
  const roleForm = managing.changeRole
    ? html`<form method="post" action="${memberPath}/role" class="inline"><select name="role" aria-label="${label} ${member.email}">${managing.roles.map(
        (role) =>
          html`<option value="${role}"${role === member.role ? html` selected` : ""}>${role}</option>`,
      )}</select> <button type="submit">${say("organizations.change_role_button")}</button></form>`
    : "";
  const removeForm = managing.remove
    ? html`<form method="post" action="${memberPath}/remove" class="inline"><button type="submit" aria-label="${say("organizations.remove_button")} ${member.email}">${say("organizations.remove_button")}</button></form>`
    : "";
  return html`${roleForm} ${removeForm}`;
}

function renderInviting(
  path: string,
  inviting: NonNullable<OrganizationPageInput["inviting"]>,
  say: ReturnType<typeof sayer>,
): SafeHtml {
  const { form } = inviting;
  const pending = inviting.invitations.map(
    (invitation) =>
      html`<li>${say("organizations.invitation_row", {
        email: invitation.email,
        role: invitation.role,
        expires: formatTimestamp(invitation.expiresAt),
      })} <form method="post" action="${path}/invitations/${invitation.id}/revoke" class="inline"><button type="submit">${say("organizations.revoke_button")}</button></form></li>`,
  );
  const chosen = form.values.role ?? inviting.roles.at(-1);
  const roleErrors = form.errors.role ?? [];
  return html`<h2>${say("organizations.invitations_heading")}</h2>
${pending.length > 0 ? html`<ul>${pending}</ul>` : ""}
<h2>${say("organizations.invite_heading")}</h2>
<form method="post" action="${path}/invitations">
${textInput(form, "email", say("organizations.invite_email_label"), { type: "email", required: true })}
<p><label for="role">${say("organizations.invite_role_label")}</label>
<select id="role" name="role">${inviting.roles.map(
    (role) =>
      html`<option value="${role}"${role === chosen ? html` selected` : ""}>${role}</option>`,
  )}</select>
${roleErrors.length > 0 && html`<span class="field-error">${roleErrors.join(" ")}</span>`}</p>
<button type="submit">${say("organizations.invite_button")}</button>
</form>`;
}

/** The rename form: the name and the slug, each with its messages. */
function renderSettings(path: string, form: PageForm, say: ReturnType<typeof sayer>): SafeHtml {
  return html`<h2>${say("organizations.settings_heading")}</h2>
<form method="post" action="${path}/settings">
${textInput(form, "name", say("organizations.name_label"), { required: true })}
${textInput(form, "slug", say("organizations.settings_slug_label"), { required: true })}
<button type="submit">${say("organizations.settings_button")}</button>
</form>`;
}

/** The delete form: what goes with the organization, and its slug to type again. */
function renderDeleting(
  path: string,
  organization: Organization,
  form: PageForm,
  say: ReturnType<typeof sayer>,
): SafeHtml {
  const label = say("organizations.delete_confirm_label", { slug: organization.slug });
  return html`<section class="danger" aria-labelledby="delete-heading">
<h2 id="delete-heading">${say("organizations.delete_heading")}</h2>
<p>${say("organizations.delete_warning", { organization: organization.name })}</p>
<form method="post" action="${path}/delete">
${textInput(form, "confirm", label, { required: true })}
<button type="submit">${say("organizations.delete_button")}</button>
</form>
</section>`;
}
