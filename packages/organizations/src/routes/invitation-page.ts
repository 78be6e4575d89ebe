import { html, type SafeHtml } from "@tessera/core";
import type { Layout, PageContext } from "@tessera/http";
import type { Invitation, Organization } from "../organization.js";
import { type OrganizationMessageId, organizationMessages } from "./organization-messages.js";

/** Why the signed-in user cannot accept the invitation on its page, or `undefined` when they can. */
export type InvitationHindrance = "email_mismatch" | "email_unconfirmed";

/** What the invitation page shows. */
export interface InvitationPageInput {
  readonly layout: Layout;
  readonly context: PageContext;
  /** The page's own path: the accept form posts there. */
  readonly path: string;
  /** The pending invitation, or undefined for one used, revoked, expired or unknown. */
  readonly found:
    | { readonly invitation: Invitation; readonly organization: Organization }
    | undefined;
  readonly hindrance: InvitationHindrance | undefined;
}

const HINDRANCE_MESSAGES: Record<InvitationHindrance, OrganizationMessageId> = {
  email_mismatch: "organizations.invitation_email_mismatch",
  email_unconfirmed: "organizations.invitation_email_unconfirmed",
};

/**
 * The page of an invitation link: the organization and the role, with the accept button when
 * the signed-in user may accept it, else why not; or that the invitation cannot be accepted.
 */
export function renderInvitationPage(input: InvitationPageInput): string {
  const { context } = input;
  const say = (id: OrganizationMessageId, params?: Record<string, string>): SafeHtml =>
    html`${organizationMessages.text(context.locale, id, params)}`;
  if (!input.found) {
    const title = organizationMessages.text(context.locale, "organizations.invitation_page_gone");
    return input.layout({
      title,
      mainHtml:
        html`<h1>${title}</h1><p>${say("organizations.invitation_not_found")}</p>`.toString(),
      context,
    });
  }
  const { invitation, organization } = input.found;
  const names = { organization: organization.name, role: invitation.role };
  const title = organizationMessages.text(
    context.locale,
    "organizations.invitation_page_title",
    names,
  );
  const action = input.hindrance
    ? html`<p role="alert">${say(HINDRANCE_MESSAGES[input.hindrance])}</p>`
    : html`<form method="post" action="${input.path}"><button type="submit">${say("organizations.invitation_accept_button")}</button></form>`;
  return input.layout({
    title,
    mainHtml: html`<h1>${title}</h1>
<p>${say("organizations.invitation_page_intro", names)}</p>
${action}`.toString(),
    context,
  });
}
