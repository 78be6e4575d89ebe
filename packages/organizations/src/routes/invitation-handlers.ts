import { mailLinkOrigin, normalizeEmail } from "@tessera/accounts";
import { systemClock } from "@tessera/core";
import { jsonAnswer, notFound, type RouteContext, type RouteHandler } from "@tessera/http";
import { invitationAcceptor } from "./invitation-acceptance.js";
import { invitationRevoker } from "./invitation-revocation.js";
import { invitationSender } from "./invitation-sending.js";
import { invitationTokenDigest } from "./invitation-token.js";
import { readTextBody } from "./organization-body.js";
import type { OrganizationMemberContext, OrganizationUserContext } from "./organization-context.js";
import {
  type OrganizationErrorEntry,
  organizationErrorAnswer,
  organizationErrors,
} from "./organization-errors.js";
import { fieldRefusal } from "./organization-fields.js";
import { invitationJson, organizationJson } from "./organization-json.js";
import type { OrganizationRoutesOptions } from "./organization-routes-options.js";

/** The routes of invitations: send, list and revoke an organization's; accept one by its token. */
export function invitationHandlers<C extends RouteContext>(options: OrganizationRoutesOptions<C>) {
  const store = options.organizations;
  const clock = options.clock ?? systemClock;
  const send = invitationSender(options);
  const acceptInvitation = invitationAcceptor(options);
  const revoke = invitationRevoker(options);
  const linkOrigins = { appUrl: options.appUrl, allowedOrigins: options.allowedOrigins ?? [] };

  const member = {
    async create(request, { organization, user, role: actorRole, locale, clientAddress }) {
      const body = await readTextBody(request, ["email", "role"], locale);
      if (!body.ok) return body.response;
      const sent = await send({
        organization,
        inviter: user,
        inviterRole: actorRole,
        email: body.values.email,
        role: body.values.role,
        // Chosen before anything is stored: the request's origin only when the app is served there.
        origin: mailLinkOrigin(request, linkOrigins),
        locale,
        at: { request, clientAddress },
      });
      if (sent.ok) return jsonAnswer(invitationJson(sent.invitation), { status: 201, locale });
      return "fields" in sent
        ? fieldRefusal(sent.fields, locale)
        : organizationErrorAnswer(sent.error, locale, sent.params);
    },

    async list(_request, { organization, locale }) {
      const invitations = await store.listInvitations(organization.id, clock());
      return jsonAnswer(invitations.map(invitationJson), { locale });
    },

    async revoke(request, { organization, user, params, locale, clientAddress }) {
      const revoked = await revoke(organization, user.id, params.id, { request, clientAddress });
      return revoked ? new Response(null, { status: 204 }) : notFound(locale);
    },
  } satisfies Record<string, RouteHandler<OrganizationMemberContext<C>>>;

  const signedIn = {
    async accept(request, { user, params, locale, clientAddress }) {
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
      const at = { request, clientAddress };
      const accepted = await acceptInvitation(digest, { id: user.id, email }, at);
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
