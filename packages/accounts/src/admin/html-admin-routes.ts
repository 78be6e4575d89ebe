import type { ApiKeyStore } from "@tessera/bearer";
import { type Clock, signedInBeforeCredentialsChanged, systemClock } from "@tessera/core";
import {
  htmlPage,
  IMPERSONATION_STOP_PATH,
  loadListPage,
  pathId,
  type Route,
  type RouteHandler,
  type RouteMiddleware,
  readListPage,
  seeOther,
  withMiddleware,
} from "@tessera/http";
import {
  type MaybeSessionContext,
  pageSafety,
  sessionPageContext,
  signInDevice,
  signOutDevice,
} from "@tessera/session";
import type { AccountEvents } from "../account-hooks.js";
import { accountMessages } from "../account-messages.js";
import type { AuditLog } from "../audit/audit-log.js";
import { readAccountForm } from "../html/account-form.js";
import { flashAccountMessage } from "../html/account-page-context.js";
import type { HtmlAccountRoutesOptions, SignedInContext } from "../html/html-routes-options.js";
import { signedInPage } from "../html/signed-in-page.js";
import type { FindFactorSummary } from "../second-factor/factor-summary.js";
import {
  type ActingOperator,
  readActingOperator,
  rememberActingOperator,
} from "../sign-in/acting-operator.js";
import {
  readSessionAuthentication,
  rememberSessionAuthentication,
} from "../sign-in/session-authentication.js";
import { isBanned, type User } from "../users/user.js";
import type { UserAdministration, UserStore } from "../users/user-store.js";
import { isAdmin } from "./admin-access.js";
import { ADMIN_USERS_PATH, type AdminPages } from "./admin-pages.js";
import {
  IMPERSONATION_FACTOR,
  IMPERSONATION_LIFETIME_SECONDS,
  startImpersonation,
  stopImpersonation,
} from "./impersonation.js";
import { loadUserFacts } from "./user-facts.js";
import { banUser, checkBanRequest, endUserSignIns, unbanUser } from "./user-moderation.js";

/** What the operators' pages are built from. */
export interface HtmlAdminRoutesOptions
  extends Pick<
    HtmlAccountRoutesOptions,
    "sessions" | "allowedOrigins" | "pageHeaders" | "appUrl" | "pages"
  > {
  readonly users: UserStore & UserAdministration;
  readonly events: AccountEvents;
  readonly apiKeys: ApiKeyStore;
  readonly adminPages: AdminPages;
  readonly adminEmails?: readonly string[] | undefined;
  readonly auditLog?: AuditLog | undefined;
  readonly findFactorSummary?: FindFactorSummary | undefined;
  readonly clock?: Clock | undefined;
}

type Handler = RouteHandler<SignedInContext>;
/** A page request of a session an operator acts as its user in, with who they are. */
type ImpersonatingContext = SignedInContext & { readonly acting: ActingOperator };

/**
 * The operators' pages: `GET /admin/users?query=&after=` (search), `GET /admin/users/:id`,
 * and its forms `POST …/ban`, `…/unban`, `…/sessions/revoke`, which make the changes the JSON
 * routes make (`banUser`, `unbanUser`, `endUserSignIns`), and `POST …/impersonate`, which
 * signs this browser in as the user for at most an hour; `POST /admin/impersonation/stop`
 * (the layout's banner) signs the operator back in as they were. A visitor who is not signed
 * in is sent to sign in, as on every signed-in page; a signed-in user who is no operator gets
 * a 404 page, as for a page the app does not serve.
 */
export function htmlAdminRoutes(options: HtmlAdminRoutesOptions): Route<MaybeSessionContext>[] {
  const clock = options.clock ?? systemClock;
  const { users, adminPages: pages } = options;
  const parts = { ...options, clock, trackedSessions: options.sessions.trackedSessions };

  const notFound = (context: SignedInContext) =>
    htmlPage(404, pages.notFound({ context: sessionPageContext(context, context.user.email) }));

  /** Operators only: anyone else signed in gets a 404 page, as for a page not served. */
  const operatorsOnly: RouteMiddleware<SignedInContext, SignedInContext> =
    (next) => async (request, context) =>
      isAdmin(context.user, options.adminEmails) ? next(request, context) : notFound(context);

  async function subjectOf(context: SignedInContext): Promise<User | undefined> {
    const id = pathId(context.params.id);
    return id === undefined ? undefined : users.findById(id);
  }

  async function userPage(
    context: SignedInContext,
    user: User,
    status: number,
    ban?: Parameters<AdminPages["user"]>[0]["ban"],
  ): Promise<Response> {
    const facts = await loadUserFacts(parts, user);
    const context_ = sessionPageContext(context, context.user.email);
    return htmlPage(
      status,
      pages.user({ context: context_, user, facts, now: clock(), ...(ban ? { ban } : {}) }),
    );
  }

  const handlers = {
    async list(request, context) {
      const url = new URL(request.url);
      const asked = readListPage(url);
      const page = asked.ok ? asked.value : { limit: 50, offset: 0 };
      const query = (url.searchParams.get("query") ?? "").slice(0, 254);
      const { rows, next: olderHref } = await loadListPage(url, page, (listed) =>
        users.searchUsers({ query, ...listed }),
      );
      const body = pages.users({
        context: sessionPageContext(context, context.user.email),
        query,
        users: rows,
        olderHref,
        now: clock(),
      });
      return htmlPage(200, body);
    },

    async show(_request, context) {
      const user = await subjectOf(context);
      return user ? userPage(context, user, 200) : notFound(context);
    },

    async ban(request, context) {
      const form = await readAccountForm(request, context, options);
      if (!form.ok) return form.response;
      const target = await subjectOf(context);
      if (!target) return notFound(context);
      const reason = form.value.get("reason") ?? "";
      const until = form.value.get("until") ?? "";
      const ban = checkBanRequest(reason, until, clock());
      if (!ban.ok) return userPage(context, target, 422, { reason, until, errors: ban.fields });
      const banned = await banUser(parts, context.user, target, ban.value, { ...context, request });
      if (banned === "gone") return notFound(context);
      if (banned === "not-bannable") {
        const error = accountMessages.text(context.locale, "accounts.admin.not_bannable");
        const page = pages.user({
          context: sessionPageContext(context, context.user.email),
          user: target,
          facts: await loadUserFacts(parts, target),
          now: clock(),
          error,
        });
        return htmlPage(409, page);
      }
      flashAccountMessage(context, "notice", "accounts.admin.banned_notice");
      return seeOther(`${ADMIN_USERS_PATH}/${target.id}`);
    },

    async unban(request, context) {
      const target = await subjectOf(context);
      if (!target || !(await unbanUser(parts, context.user, target, { ...context, request }))) {
        return notFound(context);
      }
      flashAccountMessage(context, "notice", "accounts.admin.unbanned_notice");
      return seeOther(`${ADMIN_USERS_PATH}/${target.id}`);
    },

    async revokeSessions(request, context) {
      const target = await subjectOf(context);
      if (
        !target ||
        !(await endUserSignIns(parts, context.user, target, { ...context, request }))
      ) {
        return notFound(context);
      }
      flashAccountMessage(context, "notice", "accounts.admin.signed_out_notice");
      return seeOther(`${ADMIN_USERS_PATH}/${target.id}`);
    },

    async impersonate(request, context) {
      const target = await subjectOf(context);
      if (!target) return notFound(context);
      const operator = context.user;
      const started = await startImpersonation(parts, operator, target, { ...context, request });
      if (started === "not-impersonable") {
        flashAccountMessage(context, "alert", "accounts.admin.not_impersonable");
        return seeOther(`${ADMIN_USERS_PATH}/${target.id}`);
      }
      // The operator's own sign-in is kept in the impersonation's session, to be restored as it
      // was (never fresher) when they stop.
      const own = readSessionAuthentication(context.session);
      await signOutDevice(options.sessions, context);
      await signInDevice(options.sessions, request, context, target.id, {
        lifetimeSeconds: IMPERSONATION_LIFETIME_SECONDS,
        factors: [IMPERSONATION_FACTOR],
      });
      rememberSessionAuthentication(context.session, started);
      rememberActingOperator(context.session, { operatorId: operator.id, authentication: own });
      return seeOther("/account");
    },
  } satisfies Record<string, Handler>;

  const routes: Route<SignedInContext>[] = [
    { method: "GET", path: ADMIN_USERS_PATH, handle: handlers.list },
    { method: "GET", path: `${ADMIN_USERS_PATH}/:id`, handle: handlers.show },
    { method: "POST", path: `${ADMIN_USERS_PATH}/:id/ban`, handle: handlers.ban },
    { method: "POST", path: `${ADMIN_USERS_PATH}/:id/unban`, handle: handlers.unban },
    {
      method: "POST",
      path: `${ADMIN_USERS_PATH}/:id/sessions/revoke`,
      handle: handlers.revokeSessions,
    },
    { method: "POST", path: `${ADMIN_USERS_PATH}/:id/impersonate`, handle: handlers.impersonate },
  ];
  // Stopping is asked by the impersonated user's session, which no operator check would pass.
  async function stopActing(request: Request, context: ImpersonatingContext) {
    const { acting } = context;
    const startedAt = context.session.signedInAt ?? 0;
    await stopImpersonation(parts, acting.operatorId, context.user, { ...context, request });
    await signOutDevice(options.sessions, context);
    const operator = await users.findById(acting.operatorId);
    const mayReturn =
      operator !== undefined &&
      isAdmin(operator, options.adminEmails) &&
      !isBanned(operator, clock()) &&
      !signedInBeforeCredentialsChanged(startedAt, operator.credentialsChangedAt);
    if (!mayReturn) return seeOther("/login");
    const factors = acting.authentication?.factors;
    await signInDevice(options.sessions, request, context, operator.id, {
      ...(factors ? { factors } : {}),
    });
    if (acting.authentication) {
      rememberSessionAuthentication(context.session, acting.authentication);
    }
    flashAccountMessage(context, "notice", "accounts.admin.impersonation_stopped");
    return seeOther(`${ADMIN_USERS_PATH}/${context.user.id}`);
  }

  /** The impersonated user's session only: anyone else gets the 404 page of a page not served. */
  const impersonatingOnly: RouteMiddleware<SignedInContext, ImpersonatingContext> =
    (next) => async (request, context) => {
      const acting = readActingOperator(context.session);
      return acting ? next(request, { ...context, acting }) : notFound(context);
    };
  const stop: Route<ImpersonatingContext> = {
    method: "POST",
    path: IMPERSONATION_STOP_PATH,
    handle: stopActing,
  };
  return withMiddleware(
    [
      ...withMiddleware(routes, signedInPage(users), operatorsOnly),
      ...withMiddleware([stop], signedInPage(users), impersonatingOnly),
    ],
    pageSafety(options),
  );
}
