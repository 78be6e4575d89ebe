import { formatTimestamp, html, type Locale } from "@tessera/core";
import type { MailMessage } from "@tessera/mail";
import { organizationMessages } from "./organization-messages.js";

/** Where an invitation's link points, after the origin: the app's page that accepts it. */
export const INVITATION_PAGE_PATH = "/invitations/";

/** What an invitation mail says. */
export interface InvitationMailInput {
  /** The invited (normalized) address. */
  readonly to: string;
  readonly organizationName: string;
  /** Who invited: their address. */
  readonly inviter: string;
  readonly role: string;
  /** The origin the link points to, as `mailLinkOrigin` chose it. */
  readonly origin: string;
  readonly token: string;
  readonly expiresAt: number;
  readonly locale: Locale | undefined;
}

/**
 * The invitation mail: `You're invited to join <name>`, with `<origin>/invitations/<token>`
 * alone on its line in the text part and as a link in the HTML part (escaped), and its expiry.
 */
export function invitationMail(input: InvitationMailInput): MailMessage {
  const { locale } = input;
  const text = organizationMessages.text.bind(organizationMessages, locale);
  const organization = input.organizationName;
  const link = `${input.origin}${INVITATION_PAGE_PATH}${input.token}`;
  const intro = text("organizations.invitation_mail_intro", {
    inviter: input.inviter,
    organization,
    role: input.role,
  });
  const action = text("organizations.invitation_mail_action");
  const validity = text("organizations.invitation_mail_validity", {
    expires: formatTimestamp(input.expiresAt),
  });
  return {
    to: input.to,
    subject: text("organizations.invitation_mail_subject", { organization }),
    text: `${intro}\n\n${action}\n${link}\n\n${validity}\n`,
    html: `${html`<p>${intro}</p>
<p>${action} <a href="${link}">${link}</a></p>
<p>${validity}</p>`}\n`,
  };
}
