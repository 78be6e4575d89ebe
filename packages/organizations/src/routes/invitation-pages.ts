import { type AuditTrail, normalizeEmail } from "@tessera/accounts";
import { type Clock, systemClock } from "@tessera/core";
import {
  type Authenticate,
  authenticated,
  htmlPage,
  type Layout,
  NO_STORE,
  type PageContext,
  type Route,
  seeOther,
  withMiddleware,
} from "@tessera/http";
import {
  type HtmlRouteContext,
  type HtmlRouteSafety,
  type MaybeSessionContext,
  pageSafety,
  sessionPageContext,
} from "@tessera/session";
import type { OrganizationStore } from "../organization-store.js";
import { invitationAcceptor } from "./invitation-acceptance.js";
import { INVITATION_PAGE_PATH } from "./invitation-mail.js";
import { type InvitationHindrance, renderInvitationPage } from "./invitation-page.js";
import { invitationTokenDigest } from "./invitation-token.js";
import type { OrganizationUser } from "./organization-context.js";
import { organizationMessages } from "./organization-messages.js";

/** What the invitation pages are built from. */
export interface InvitationPagesOptions extends HtmlRouteSafety {
  readonly organizations: OrganizationStore;
  /**
   * The signed-in user of the cookie session, or the way to sign in:
   * `sessionAuthentication(findUser)` of @tessera/session, which sends a visitor to sign in
   * (or up) and back to the invitation's page afterwards.
   */
  readonly authenticate: Authenticate<{ readonly user: OrganizationUser }, HtmlRouteContext>;
  /** The app's page frame. */
  readonly layout: Layout;
  /** Where an accepted invitation leads, with a notice (default `/`). */
  readonly acceptedPath?: string | undefined;
  readonly clock?: Clock | undefined;
  /** The app's audit trail: an accepted invitation is `organization.member_added` in it. */
  readonly audit?: AuditTrail | undefined;
}

type InvitationPageContext = HtmlRouteContext & { readonly user: OrganizationUser };

/**
 * The page an invitation mail links to, `GET /invitations/{token}`: who invites the signed-in
 * user to which organization as what, and a button that accepts it (`POST` to the same path),
 * by the rules of `POST /api/invitations/{token}/accept` (the user's confirmed address must be
 * the invited one). A visitor is sent to sign in first, and comes back. A used, revoked,
 * expired or unknown invitation is a 404 page saying so; the token is never stored in a page
 * cache (`Cache-Control: no-store`).
 */
export function invitationPages(options: InvitationPagesOptions): Route<MaybeSessionContext>[] {
  const store = options.organizations;
  const clock = options.clock ?? systemClock;
  const path = `${INVITATION_PAGE_PATH}:token`;
  const acceptInvitation = invitationAcceptor(options);

  const pageContext = (context: InvitationPageContext): PageContext =>
    sessionPageContext(context, context.user.email);

  /** The page of the token, with why its user cannot accept it (undefined when they can). */
  async function page(context: InvitationPageContext, status?: number): Promise<Response> {
    const token = context.params.token ?? "";
    const digest = invitationTokenDigest(token);
    const found = digest === undefined ? undefined : await store.findInvitation(digest, clock());
    const hindrance = found && hindranceOf(context.user, found.invitation.email);
    const body = renderInvitationPage({
      layout: options.layout,
      context: pageContext(context),
      path: `${INVITATION_PAGE_PATH}${encodeURIComponent(token)}`,
      found,
      hindrance,
    });
    return htmlPage(status ?? (found ? (hindrance ? 403 : 200) : 404), body, NO_STORE);
  }

  async function accept(request: Request, context: InvitationPageContext): Promise<Response> {
    const { user, locale } = context;
    const digest = invitationTokenDigest(context.params.token ?? "");
    if (digest === undefined || user.confirmedAt === null) return page(context);
    const email = normalizeEmail(user.email);
    const at = { request, clientAddress: context.clientAddress };
    const accepted = await acceptInvitation(digest, { id: user.id, email }, at);
    if (!accepted.ok) return page(context);
    const notice = organizationMessages.text(locale, "organizations.invitation_accepted", {
      organization: accepted.organization.name,
      role: accepted.role,
    });
    context.session.flash("notice", notice);
    return seeOther(options.acceptedPath ?? "/");
  }

  const routes: Route<InvitationPageContext>[] = [
    { method: "GET", path, handle: (_request, context) => page(context) },
    { method: "POST", path, handle: accept },
  ];
  // The session's authentication refuses for itself: a visitor is sent to sign in, and back.
  return withMiddleware(
    routes,
    pageSafety(options),
    authenticated<{ readonly user: OrganizationUser }, HtmlRouteContext>(options.authenticate),
  );
}

/** Why `user` cannot accept an invitation sent to `invited`, or undefined when they can. */
function hindranceOf(user: OrganizationUser, invited: string): InvitationHindrance | undefined {
  if (user.confirmedAt === null) return "email_unconfirmed";
  return normalizeEmail(user.email) === invited ? undefined : "email_mismatch";
}
