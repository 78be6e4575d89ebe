import { normalizeEmail } from "@tessera/accounts";
import { type Locale, type MessageParams, systemClock } from "@tessera/core";
import type { Invitation, Organization } from "../organization.js";
import { invitationMail } from "./invitation-mail.js";
import { newInvitationToken } from "./invitation-token.js";
import { type AuditedRequest, recordOrganizationEvent } from "./organization-audit.js";
import { type OrganizationErrorEntry, organizationErrors } from "./organization-errors.js";
import {
  ALREADY_MEMBER,
  addProblem,
  emailProblem,
  type FieldErrors,
  roleProblem,
} from "./organization-fields.js";
import { rolesOf } from "./organization-member.js";
import {
  INVITATION_LIFETIME_MS,
  type OrganizationRoutesOptions,
} from "./organization-routes-options.js";

/** An invitation as a member asks for it, from a JSON body or a form. */
export interface InvitationRequest {
  readonly organization: Organization;
  /** The inviting member and their role. */
  readonly inviter: { readonly id: number; readonly email: string };
  readonly inviterRole: string;
  /** As written: normalized and checked here. */
  readonly email: string | undefined;
  readonly role: string | undefined;
  /** The origin of the mail's link, as `mailLinkOrigin` chose it for the request. */
  readonly origin: string;
  /** The language of the mail. */
  readonly locale: Locale | undefined;
  /** The request that asks, for the audit trail. */
  readonly at: AuditedRequest;
}

/** What came of an invitation: sent, refused on its fields (a 422), or refused whole. */
export type InvitationOutcome =
  | { readonly ok: true; readonly invitation: Invitation }
  | { readonly ok: false; readonly fields: FieldErrors }
  | {
      readonly ok: false;
      readonly error: OrganizationErrorEntry;
      readonly params?: MessageParams | undefined;
    };

/** Reports a mail that could not be handed over, without its recipient or token. */
function reportInvitationMailErrorToStderr(error: unknown): void {
  console.error(
    `Could not send an organization invitation mail: ${(error as Error)?.message ?? error}`,
  );
}

/**
 * Sends invitations the one way the JSON route and the page share: the address and the role
 * checked (a role no greater than the inviter's, nobody who is a member already), the
 * invitation stored with its token's digest, then the mail awaited; a mail that cannot be
 * handed over revokes the invitation (`invitationNotSent`). A sent invitation is recorded in
 * `audit` (`organization.invitation_created`, about the inviter; never with its token).
 */
export function invitationSender(
  options: Pick<
    OrganizationRoutesOptions<never>,
    | "organizations"
    | "roles"
    | "mailer"
    | "clock"
    | "invitationLifetimeMs"
    | "reportMailError"
    | "audit"
  >,
) {
  const store = options.organizations;
  const roles = rolesOf(options);
  const clock = options.clock ?? systemClock;
  const lifetime = options.invitationLifetimeMs ?? INVITATION_LIFETIME_MS;
  const reportMailError = options.reportMailError ?? reportInvitationMailErrorToStderr;

  return async (request: InvitationRequest): Promise<InvitationOutcome> => {
    const { organization, inviter } = request;
    const email = normalizeEmail(request.email ?? "");
    const fields: FieldErrors = {};
    addProblem(fields, "email", emailProblem(email));
    addProblem(fields, "role", roleProblem(request.role, roles));
    if (Object.keys(fields).length > 0) return { ok: false, fields };
    const role = request.role as string; // roleProblem refuses a missing one
    if (!roles.grantableBy(role, request.inviterRole)) {
      return { ok: false, error: organizationErrors.roleNotGrantable, params: { role } };
    }
    const members = await store.listMembers(organization.id);
    if (members.some((each) => normalizeEmail(each.email) === email)) {
      return { ok: false, fields: { email: [ALREADY_MEMBER] } };
    }
    const { token, digest } = newInvitationToken();
    const now = clock();
    const invitation = await store.createInvitation({
      organizationId: organization.id,
      email,
      role,
      invitedBy: inviter.id,
      tokenDigest: digest,
      expiresAt: now + lifetime,
      now,
    });
    const mail = invitationMail({
      to: email,
      organizationName: organization.name,
      inviter: inviter.email,
      role,
      origin: request.origin,
      token,
      expiresAt: invitation.expiresAt,
      locale: request.locale,
    });
    try {
      // Awaited, unlike accounts' mails: the inviter learns nothing from the timing they did
      // not know, and must learn when no mail went out.
      await options.mailer.send(mail);
    } catch (error) {
      reportMailError(error);
      await store.revokeInvitation(organization.id, invitation.id, clock());
      return { ok: false, error: organizationErrors.invitationNotSent };
    }
    await recordOrganizationEvent(
      options.audit,
      "organization.invitation_created",
      inviter.id,
      request.at,
      organization,
      { details: { invitation_id: invitation.id, email, role } },
    );
    return { ok: true, invitation };
  };
}
