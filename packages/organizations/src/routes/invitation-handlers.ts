import { mailLinkOrigin, normalizeEmail } from "@tessera/accounts";
import { systemClock } from "@tessera/core";
import { jsonAnswer, notFound, pathId, type RouteContext, type RouteHandler } from "@tessera/http";
import { invitationMail } from "./invitation-mail.js";
import { invitationTokenDigest, newInvitationToken } from "./invitation-token.js";
import { readTextBody } from "./organization-body.js";
import type { OrganizationMemberContext, OrganizationUserContext } from "./organization-context.js";
import {
  type OrganizationErrorEntry,
  organizationErrorAnswer,
  organizationErrors,
} from "./organization-errors.js";
import {
  ALREADY_MEMBER,
  addProblem,
  emailProblem,
  type FieldErrors,
  fieldRefusal,
  roleProblem,
} from "./organization-fields.js";
import { invitationJson, organizationJson } from "./organization-json.js";
import { rolesOf } from "./organization-member.js";
import {
  INVITATION_LIFETIME_MS,
  type OrganizationRoutesOptions,
} from "./organization-routes-options.js";

/** Reports a mail that could not be handed over, without its recipient or token. */
function reportInvitationMailErrorToStderr(error: unknown): void {
  console.error(
    `Could not send an organization invitation mail: ${(error as Error)?.message ?? error}`,
  );
}

/** The routes of invitations: send, list and revoke an organization's; accept one by its token. */
export function invitationHandlers<C extends RouteContext>(options: OrganizationRoutesOptions<C>) {
  const store = options.organizations;
  const roles = rolesOf(options);
  const clock = options.clock ?? systemClock;
  const lifetime = options.invitationLifetimeMs ?? INVITATION_LIFETIME_MS;
  const reportMailError = options.reportMailError ?? reportInvitationMailErrorToStderr;
  const linkOrigins = { appUrl: options.appUrl, allowedOrigins: options.allowedOrigins ?? [] };

  const member = {
    async create(request, { organization, user, role: actorRole, locale }) {
      const body = await readTextBody(request, ["email", "role"], locale);
      if (!body.ok) return body.response;
      const email = normalizeEmail(body.values.email ?? "");
      const fields: FieldErrors = {};
      addProblem(fields, "email", emailProblem(email));
      addProblem(fields, "role", roleProblem(body.values.role, roles));
      if (Object.keys(fields).length > 0) return fieldRefusal(fields, locale);
      const role = body.values.role as string; // roleProblem refuses a missing one
      if (!roles.grantableBy(role, actorRole)) {
        return organizationErrorAnswer(organizationErrors.roleNotGrantable, locale, { role });
      }
      const members = await store.listMembers(organization.id);
      if (members.some((each) => normalizeEmail(each.email) === email)) {
        return fieldRefusal({ email: [ALREADY_MEMBER] }, locale);
      }
      // Chosen before anything is stored: the request's origin only when the app is served there.
      const origin = mailLinkOrigin(request, linkOrigins);
      const { token, digest } = newInvitationToken();
      const now = clock();
      const invitation = await store.createInvitation({
        organizationId: organization.id,
        email,
        role,
        invitedBy: user.id,
        tokenDigest: digest,
        expiresAt: now + lifetime,
        now,
      });
      const mail = invitationMail({
        to: email,
        organizationName: organization.name,
        inviter: user.email,
        role,
        origin,
        token,
        expiresAt: invitation.expiresAt,
        locale,
      });
      try {
        // Awaited, unlike accounts' mails: the inviter learns nothing from the timing they did
        // not know, and must learn when no mail went out.
        await options.mailer.send(mail);
      } catch (error) {
        reportMailError(error);
        await store.revokeInvitation(organization.id, invitation.id, clock());
        return organizationErrorAnswer(organizationErrors.invitationNotSent, locale);
      }
      return jsonAnswer(invitationJson(invitation), { status: 201, locale });
    },

    async list(_request, { organization, locale }) {
      const invitations = await store.listInvitations(organization.id, clock());
      return jsonAnswer(invitations.map(invitationJson), { locale });
    },

    async revoke(_request, { organization, params, locale }) {
      const id = pathId(params.id);
      if (id === undefined) return notFound(locale);
      const revoked = await store.revokeInvitation(organization.id, id, clock());
      return revoked ? new Response(null, { status: 204 }) : notFound(locale);
    },
  } satisfies Record<string, RouteHandler<OrganizationMemberContext<C>>>;

  const signedIn = {
    async accept(_request, { user, params, locale }) {
      const refuse = (entry: OrganizationErrorEntry) => organizationErrorAnswer(entry, locale);
      const digest = invitationTokenDigest(params.token ?? "");
      if (digest === undefined) return refuse(organizationErrors.invitationNotFound);
      const now = clock();
      if (user.confirmedAt === null) {
        // An unconfirmed address proves nothing; whether the invitation exists still comes first.
        const pending = await store.findInvitation(digest, now);
        return refuse(
          pending
            ? organizationErrors.invitationEmailUnconfirmed
            : organizationErrors.invitationNotFound,
        );
      }
      const email = normalizeEmail(user.email);
      const accepted = await store.acceptInvitation(digest, { id: user.id, email }, now);
      if (!accepted.ok) {
        return refuse(
          accepted.reason === "email_mismatch"
            ? organizationErrors.invitationEmailMismatch
            : organizationErrors.invitationNotFound,
        );
      }
      const answer = { organization: organizationJson(accepted.organization), role: accepted.role };
      return jsonAnswer(answer, { locale });
    },
  } satisfies Record<string, RouteHandler<OrganizationUserContext<C>>>;

  return { member, signedIn };
}
