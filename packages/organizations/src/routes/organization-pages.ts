import { type AuditTrail, mailLinkOrigin } from "@tessera/accounts";
import { type Clock, type Locale, systemClock } from "@tessera/core";
import {
  type AttemptCounter,
  type Authenticate,
  attemptRateLimit,
  authenticated,
  htmlPage,
  httpMessages,
  type Layout,
  type PageContext,
  type Route,
  type RouteMiddleware,
  readFormBody,
  seeOther,
  withMiddleware,
} from "@tessera/http";
import type { Mailer } from "@tessera/mail";
import {
  type HtmlRouteContext,
  type HtmlRouteSafety,
  type MaybeSessionContext,
  pageSafety,
  sessionPageContext,
} from "@tessera/session";
import type { Organization, OrganizationWithRole } from "../organization.js";
import type { OrganizationStore } from "../organization-store.js";
import type { Permission, Roles } from "../roles.js";
import { type ActionableMemberRefusal, actionableMember } from "./actionable-member.js";
import { invitationRevoker } from "./invitation-revocation.js";
import { invitationSender } from "./invitation-sending.js";
import { memberChanges } from "./member-changes.js";
import type { OrganizationUser } from "./organization-context.js";
import { organizationCreator } from "./organization-creation.js";
import { organizationDeleter } from "./organization-deletion.js";
import { roleProblem, translatedFieldErrors } from "./organization-fields.js";
import { findOrganizationMembership, rolesOf } from "./organization-member.js";
import { organizationMessages } from "./organization-messages.js";
import {
  EMPTY_FORM,
  type PageForm,
  renderOrganizationPage,
  renderOrganizationsPage,
} from "./organization-pages-view.js";
import { ORGANIZATION_WRITE_RATE_LIMIT } from "./organization-routes-options.js";
import { organizationUpdater } from "./organization-update.js";

/** Where the organization pages live by default: `/orgs` and `/orgs/<slug>`. */
export const ORGANIZATIONS_PAGE_PATH = "/orgs";

/** The largest form of these pages: a name and a slug, or an address and a role. */
const MAXIMUM_FORM_BYTES = 4 * 1024;

/**
 * A link from an organization's page to a page under it: its records of one model, or another
 * page of the organization's (its webhooks) with the `permission` that page needs.
 */
export interface RecordLink {
  /**
   * The model's table: its pages are at `/orgs/<slug>/<table>`; or the segment of another page
   * under the organization's (`webhooks`: `/orgs/<slug>/webhooks`).
   */
  readonly table: string;
  /** What a role must allow to see the link; default the model's `<table>:read`. */
  readonly permission?: Permission | undefined;
  /** The link's text in a language (`undefined`: English). */
  label(locale: Locale | undefined): string;
}

/**
 * The links of `links` a member of `role` may follow (their `permission`, by default their
 * model's `read`), as the organization's page at `path` shows them in `locale`.
 */
export function readableRecordLinks(
  links: readonly RecordLink[],
  roles: Roles,
  role: string,
  at: { readonly path: string; readonly locale: Locale | undefined },
): { readonly href: string; readonly text: string }[] {
  return links
    .filter((link) => roles.allows(role, link.permission ?? `${link.table}:read`))
    .map((link) => ({ href: `${at.path}/${link.table}`, text: link.label(at.locale) }));
}

/** What {@link organizationPages} is built from. */
export interface OrganizationPagesOptions extends HtmlRouteSafety {
  readonly organizations: OrganizationStore;
  /** The app's roles; default `defineRoles()`, the built-in ones. */
  readonly roles?: Roles | undefined;
  /** The signed-in user of the cookie session: `sessionAuthentication(findUser)`. */
  readonly authenticate: Authenticate<{ readonly user: OrganizationUser }, HtmlRouteContext>;
  readonly layout: Layout;
  /** Sends the invitation mails, as the JSON routes' `mailer`. */
  readonly mailer: Mailer;
  /** The app's public address (`APP_URL`): see `OrganizationRoutesOptions.appUrl`. */
  readonly appUrl?: string | undefined;
  /** Counts the pages' writes with the JSON routes', per user; none, nothing is counted. */
  readonly rateLimiter?: AttemptCounter | undefined;
  /** The pages' path (default {@link ORGANIZATIONS_PAGE_PATH}). */
  readonly path?: string | undefined;
  /**
   * The organization's record pages its page links to, for a member whose role may read them:
   * `{ table: "projects", label }` links `/orgs/<slug>/projects`, `label` in the page's
   * language; another page under it with the permission it needs, `{ table: "webhooks",
   * permission: "webhooks:manage", label }`. Default: none.
   */
  readonly recordLinks?: readonly RecordLink[] | undefined;
  readonly clock?: Clock | undefined;
  readonly invitationLifetimeMs?: number | undefined;
  readonly reportMailError?: ((error: unknown) => void) | undefined;
  /** The app's audit trail: the pages' changes are recorded as the JSON routes' are. */
  readonly audit?: AuditTrail | undefined;
  /**
   * Deletes what the app keeps for an organization deleted from its page: give the JSON
   * routes' `beforeOrganizationDeleted`, as both delete through one function.
   */
  readonly beforeOrganizationDeleted?:
    | ((organization: Organization) => Promise<void> | void)
    | undefined;
}

type PagesContext = HtmlRouteContext & { readonly user: OrganizationUser };
type MemberPagesContext = PagesContext & { readonly membership: OrganizationWithRole };

/**
 * The organization pages of the signed-in user: `GET /orgs` (their organizations, and a form
 * that creates one: `POST /orgs`, then 303 to its page), `GET /orgs/{slug}` (the members and
 * their roles; the pending invitations and an invite form for a role with `members:invite`:
 * `POST /orgs/{slug}/invitations`) and `POST /orgs/{slug}/leave`, and the forms of each row:
 * `POST /orgs/{slug}/members/{user_id}/role` (`members:change_role`),
 * `POST /orgs/{slug}/members/{user_id}/remove` (`members:remove`) and
 * `POST /orgs/{slug}/invitations/{id}/revoke` (`members:invite`); renaming,
 * `POST /orgs/{slug}/settings` (`organization:update`: `name` and `slug`, then 303 to the new
 * address) and deleting, `POST /orgs/{slug}/delete` (`organization:delete`, its slug typed again
 * as `confirm`, then 303 to `/orgs`). The rules are the JSON routes', through the same
 * functions: the same creation, renaming and deletion (`beforeOrganizationDeleted` included),
 * the same invitation mail, no role given or taken away that may do more than one's own, the
 * last owner cannot leave or be demoted. A non-member's page of an organization is the 404 page
 * of none.
 */
export function organizationPages(options: OrganizationPagesOptions): Route<MaybeSessionContext>[] {
  const store = options.organizations;
  const roles = rolesOf(options);
  const clock = options.clock ?? systemClock;
  const base = options.path ?? ORGANIZATIONS_PAGE_PATH;
  const create = organizationCreator(store, clock, options.audit);
  const invite = invitationSender(options);
  const changes = memberChanges(options);
  const revoke = invitationRevoker(options);
  const update = organizationUpdater(store);
  const deleteOrganization = organizationDeleter(options);
  const linkOrigins = { appUrl: options.appUrl, allowedOrigins: options.allowedOrigins ?? [] };
  const text = organizationMessages.text.bind(organizationMessages);

  const pageContext = (context: PagesContext): PageContext =>
    sessionPageContext(context, context.user.email);

  const listPage = async (context: PagesContext, status: number, form: PageForm) =>
    htmlPage(
      status,
      renderOrganizationsPage({
        layout: options.layout,
        context: pageContext(context),
        path: base,
        memberships: await store.listForUser(context.user.id),
        form,
      }),
    );

  /** The page of `membership`; its forms as sent, for those given in `forms`. */
  async function organizationPage(
    context: PagesContext,
    membership: OrganizationWithRole,
    status: number,
    forms: {
      readonly invite?: PageForm | undefined;
      readonly settings?: PageForm | undefined;
      readonly deleting?: PageForm | undefined;
    } = {},
  ) {
    const { organization, role } = membership;
    const canInvite = roles.allows(role, "members:invite");
    const ownValues = { name: organization.name, slug: organization.slug };
    const html = renderOrganizationPage({
      layout: options.layout,
      context: pageContext(context),
      path: `${base}/${organization.slug}`,
      organization,
      role,
      members: await store.listMembers(organization.id),
      records: readableRecordLinks(options.recordLinks ?? [], roles, role, {
        path: `${base}/${organization.slug}`,
        locale: context.locale,
      }),
      managing: {
        roles: roles.names.filter((each) => roles.grantableBy(each, role)),
        changeRole: roles.allows(role, "members:change_role"),
        remove: roles.allows(role, "members:remove"),
        self: context.user.id,
      },
      settings: roles.allows(role, "organization:update")
        ? (forms.settings ?? { values: ownValues, errors: {} })
        : undefined,
      deleting: roles.allows(role, "organization:delete")
        ? (forms.deleting ?? EMPTY_FORM)
        : undefined,
      inviting: canInvite
        ? {
            invitations: await store.listInvitations(organization.id, clock()),
            roles: roles.names.filter((each) => roles.grantableBy(each, role)),
            form: forms.invite ?? EMPTY_FORM,
          }
        : undefined,
    });
    return htmlPage(status, html);
  }

  const notFoundPage = (context: PagesContext) => {
    context.session.flash("alert", text(context.locale, "organizations.not_found"));
    return listPage(context, 404, EMPTY_FORM);
  };

  /**
   * The check every page of an organization passes, the JSON routes' own lookup: a non-member
   * (or a slug no organization can have) gets the 404 page, a member whose role lacks
   * `permission` the organization's page as a 403 naming it; else `membership` is in the context.
   */
  const pageMember =
    (permission?: Permission): RouteMiddleware<PagesContext, MemberPagesContext> =>
    (next) =>
    async (request, context) => {
      const { user, locale } = context;
      const slug = context.params.slug ?? "";
      const found = await findOrganizationMembership(options, slug, user.id, undefined, locale);
      if (!found.ok) return notFoundPage(context);
      const membership = found.value;
      if (permission !== undefined && !roles.allows(membership.role, permission)) {
        const message = text(locale, "organizations.permission_required", { permission });
        context.session.flash("alert", message);
        return organizationPage(context, membership, 403);
      }
      return next(request, { ...context, membership });
    };

  /** The wait before another write of this user, when the limiter says to wait; else undefined. */
  const waitBeforeWriting = (context: PagesContext) =>
    options.rateLimiter
      ? attemptRateLimit(options.rateLimiter, ORGANIZATION_WRITE_RATE_LIMIT.group, [
          `user:${context.user.id}`,
        ])
      : undefined;
  const rateLimited = (context: PagesContext, wait: number) => {
    context.session.flash("alert", httpMessages.text(context.locale, "http.rate_limited"));
    return listPage(context, 429, EMPTY_FORM).then((response) => {
      response.headers.set("Retry-After", String(wait));
      return response;
    });
  };

  /** The form's fields, or the list page again as a 400 with the reason. */
  async function readForm(request: Request, context: PagesContext) {
    const body = await readFormBody(request, { maximumBytes: MAXIMUM_FORM_BYTES });
    if (body.ok) return { ok: true as const, form: body.value };
    context.session.flash("alert", body.message);
    return { ok: false as const, response: await listPage(context, 400, EMPTY_FORM) };
  }

  async function createOrganization(request: Request, context: PagesContext) {
    const wait = await waitBeforeWriting(context);
    if (wait !== undefined) return rateLimited(context, wait);
    const read = await readForm(request, context);
    if (!read.ok) return read.response;
    const name = read.form.get("name") ?? undefined;
    // An empty slug field is a slug left out: the name makes it.
    const slug = read.form.get("slug") || undefined;
    const at = { request, clientAddress: context.clientAddress };
    const created = await create(context.user.id, { name, slug }, at);
    if (!created.ok) {
      const values = { name: name ?? "", slug: slug ?? "" };
      const errors = translatedFieldErrors(created.fields, context.locale);
      return listPage(context, 422, { values, errors });
    }
    const { organization } = created;
    const notice = text(context.locale, "organizations.created", {
      organization: organization.name,
    });
    context.session.flash("notice", notice);
    return seeOther(`${base}/${organization.slug}`);
  }

  async function sendInvitation(request: Request, context: MemberPagesContext) {
    const { membership } = context;
    const { organization, role } = membership;
    const wait = await waitBeforeWriting(context);
    if (wait !== undefined) return rateLimited(context, wait);
    const read = await readForm(request, context);
    if (!read.ok) return read.response;
    const email = read.form.get("email") ?? undefined;
    const invitedRole = read.form.get("role") ?? undefined;
    const sent = await invite({
      organization,
      inviter: context.user,
      inviterRole: role,
      email,
      role: invitedRole,
      origin: mailLinkOrigin(request, linkOrigins),
      locale: context.locale,
      at: { request, clientAddress: context.clientAddress },
    });
    if (sent.ok) {
      const notice = text(context.locale, "organizations.invited", {
        email: sent.invitation.email,
      });
      context.session.flash("notice", notice);
      return seeOther(`${base}/${organization.slug}`);
    }
    const values = { email: email ?? "", role: invitedRole ?? "" };
    if ("fields" in sent) {
      const errors = translatedFieldErrors(sent.fields, context.locale);
      return organizationPage(context, membership, 422, { invite: { values, errors } });
    }
    context.session.flash("alert", text(context.locale, sent.error.message, sent.params));
    return organizationPage(context, membership, sent.error.status, {
      invite: { values, errors: {} },
    });
  }

  async function leave(request: Request, context: MemberPagesContext) {
    const { membership, user } = context;
    const { organization } = membership;
    const at = { request, clientAddress: context.clientAddress };
    const left = await changes.remove(organization, user.id, user.id, at);
    if (left === "last_owner") {
      context.session.flash("alert", text(context.locale, "organizations.last_owner"));
      return organizationPage(context, membership, 409);
    }
    // Gone meanwhile (another tab left first): the user is not a member either way.
    context.session.flash(
      "notice",
      text(context.locale, "organizations.left", { organization: organization.name }),
    );
    return seeOther(base);
  }

  /** The organization's page again, with `message` as an alert, at `status`. */
  const refusedOn = (context: MemberPagesContext, status: number, message: string) => {
    context.session.flash("alert", message);
    return organizationPage(context, context.membership, status);
  };

  /** A member the actor may not act on, said on the organization's page. */
  const memberRefusal = (context: MemberPagesContext, refusal: ActionableMemberRefusal) =>
    refusal.reason === "not_found"
      ? refusedOn(context, 404, text(context.locale, "organizations.no_such_member"))
      : refusedOn(
          context,
          403,
          text(context.locale, "organizations.role_not_grantable", { role: refusal.role }),
        );

  /** The member the path names, when the actor's role may act on theirs; else why not. */
  const pathMember = ({ membership, params }: MemberPagesContext) =>
    actionableMember(store, roles, membership.organization, membership.role, params.user_id);

  async function changeRole(request: Request, context: MemberPagesContext) {
    const { membership, user, locale } = context;
    const { organization, role: actorRole } = membership;
    const wait = await waitBeforeWriting(context);
    if (wait !== undefined) return rateLimited(context, wait);
    const read = await readForm(request, context);
    if (!read.ok) return read.response;
    const role = read.form.get("role") ?? "";
    if (roleProblem(role, roles) !== undefined) {
      return refusedOn(context, 422, text(locale, "organizations.no_such_role"));
    }
    if (!roles.grantableBy(role, actorRole)) {
      return refusedOn(context, 403, text(locale, "organizations.role_not_grantable", { role }));
    }
    const found = await pathMember(context);
    if (!found.ok) return memberRefusal(context, found);
    const at = { request, clientAddress: context.clientAddress };
    const changed = await changes.changeRole(organization, found.member, role, user.id, at);
    if (changed === "last_owner")
      return refusedOn(context, 409, text(locale, "organizations.last_owner"));
    if (typeof changed === "string") return memberRefusal(context, { reason: "not_found" });
    const notice = text(locale, "organizations.role_changed", {
      email: changed.email,
      role: changed.role,
    });
    context.session.flash("notice", notice);
    return seeOther(`${base}/${organization.slug}`);
  }

  async function removeMember(request: Request, context: MemberPagesContext) {
    const { membership, user, locale } = context;
    const { organization } = membership;
    const wait = await waitBeforeWriting(context);
    if (wait !== undefined) return rateLimited(context, wait);
    const found = await pathMember(context);
    if (!found.ok) return memberRefusal(context, found);
    const at = { request, clientAddress: context.clientAddress };
    const removed = await changes.remove(organization, found.member.userId, user.id, at);
    if (removed === "last_owner")
      return refusedOn(context, 409, text(locale, "organizations.last_owner"));
    if (removed !== true) return memberRefusal(context, { reason: "not_found" });
    const notice = text(locale, "organizations.member_removed", { email: found.member.email });
    context.session.flash("notice", notice);
    // Removing oneself is leaving: the organization's page is no longer theirs.
    return seeOther(found.member.userId === user.id ? base : `${base}/${organization.slug}`);
  }

  async function revokeInvitation(request: Request, context: MemberPagesContext) {
    const { organization } = context.membership;
    const wait = await waitBeforeWriting(context);
    if (wait !== undefined) return rateLimited(context, wait);
    const at = { request, clientAddress: context.clientAddress };
    if (!(await revoke(organization, context.user.id, context.params.id, at))) {
      return refusedOn(context, 404, text(context.locale, "organizations.no_such_invitation"));
    }
    context.session.flash("notice", text(context.locale, "organizations.invitation_revoked"));
    return seeOther(`${base}/${organization.slug}`);
  }

  async function rename(request: Request, context: MemberPagesContext) {
    const { membership, locale } = context;
    const wait = await waitBeforeWriting(context);
    if (wait !== undefined) return rateLimited(context, wait);
    const read = await readForm(request, context);
    if (!read.ok) return read.response;
    // A field left out of the form stays as it is, as in the JSON route.
    const name = read.form.get("name") ?? undefined;
    const slug = read.form.get("slug") ?? undefined;
    const updated = await update(membership.organization, { name, slug });
    if (!updated.ok) {
      if (!("fields" in updated)) return notFoundPage(context);
      const values = {
        name: name ?? membership.organization.name,
        slug: slug ?? membership.organization.slug,
      };
      const errors = translatedFieldErrors(updated.fields, locale);
      return organizationPage(context, membership, 422, { settings: { values, errors } });
    }
    const { organization } = updated;
    const notice = text(locale, "organizations.renamed", {
      organization: organization.name,
      slug: organization.slug,
    });
    context.session.flash("notice", notice);
    return seeOther(`${base}/${organization.slug}`);
  }

  async function deleteFromPage(request: Request, context: MemberPagesContext) {
    const { membership, locale } = context;
    const { organization } = membership;
    const wait = await waitBeforeWriting(context);
    if (wait !== undefined) return rateLimited(context, wait);
    const read = await readForm(request, context);
    if (!read.ok) return read.response;
    const confirm = read.form.get("confirm") ?? "";
    if (confirm.trim() !== organization.slug) {
      const message = text(locale, "organizations.delete_not_confirmed", {
        slug: organization.slug,
      });
      const deleting = { values: { confirm }, errors: { confirm: [message] } };
      return organizationPage(context, membership, 422, { deleting });
    }
    const at = { request, clientAddress: context.clientAddress };
    if (!(await deleteOrganization(organization, context.user.id, at))) {
      return notFoundPage(context);
    }
    const notice = text(locale, "organizations.deleted", { organization: organization.name });
    context.session.flash("notice", notice);
    return seeOther(base);
  }

  const routes: Route<PagesContext>[] = [
    {
      method: "GET",
      path: base,
      handle: (_request, context) => listPage(context, 200, EMPTY_FORM),
    },
    { method: "POST", path: base, handle: createOrganization },
    ...withMiddleware(
      [
        {
          method: "GET",
          path: `${base}/:slug`,
          handle: (_request, context) => organizationPage(context, context.membership, 200),
        },
        { method: "POST", path: `${base}/:slug/leave`, handle: leave },
      ],
      pageMember(),
    ),
    ...withMiddleware(
      [
        { method: "POST", path: `${base}/:slug/invitations`, handle: sendInvitation },
        { method: "POST", path: `${base}/:slug/invitations/:id/revoke`, handle: revokeInvitation },
      ],
      pageMember("members:invite"),
    ),
    ...withMiddleware(
      [{ method: "POST", path: `${base}/:slug/members/:user_id/role`, handle: changeRole }],
      pageMember("members:change_role"),
    ),
    ...withMiddleware(
      [{ method: "POST", path: `${base}/:slug/members/:user_id/remove`, handle: removeMember }],
      pageMember("members:remove"),
    ),
    ...withMiddleware(
      [{ method: "POST", path: `${base}/:slug/settings`, handle: rename }],
      pageMember("organization:update"),
    ),
    ...withMiddleware(
      [{ method: "POST", path: `${base}/:slug/delete`, handle: deleteFromPage }],
      pageMember("organization:delete"),
    ),
  ];
  return withMiddleware(
    routes,
    pageSafety(options),
    authenticated<{ readonly user: OrganizationUser }, HtmlRouteContext>(options.authenticate),
  );
}
