import type { ApiKeyStore } from "@tessera/bearer";
import { type Clock, localizeFieldMessages, systemClock, unstorableText } from "@tessera/core";
import {
  badRequest,
  jsonAnswer,
  loadListPage,
  notFound,
  pathId,
  type Route,
  type RouteContext,
  type RouteHandler,
  readJsonBody,
  readListPage,
  validationFailed,
  withMiddleware,
} from "@tessera/http";
import type { TrackedSessionStore } from "@tessera/session";
import { accountErrorAnswer } from "../account-errors.js";
import type { AccountEvents } from "../account-hooks.js";
import { auditEventJson } from "../audit/audit-json.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { BearerUserContext } from "../bearer-user.js";
import type { BearerAuthentication, TokenIssuer } from "../json-routes-options.js";
import type { OperatorColumn } from "../profile/operator-columns.js";
import type { FindFactorSummary } from "../second-factor/factor-summary.js";
import { tokenAnswer } from "../token-answer.js";
import type { User } from "../users/user.js";
import type { UserAdministration, UserStore } from "../users/user-store.js";
import { adminBearer, impersonatorBearer } from "./admin-access.js";
import { adminErrors } from "./admin-errors.js";
import { adminUserJson } from "./admin-user-json.js";
import { startImpersonation, stopImpersonation } from "./impersonation.js";
import { loadUserFacts } from "./user-facts.js";
import { banUser, checkBanRequest, endUserSignIns, unbanUser } from "./user-moderation.js";

/** What the admin routes are built from. */
export interface JsonAdminRoutesOptions {
  readonly users: UserStore & UserAdministration;
  readonly bearer: BearerAuthentication;
  /** Issues the tokens an operator acts as a user with (`…/impersonate`). */
  readonly tokens: TokenIssuer;
  readonly events: AccountEvents;
  readonly apiKeys: ApiKeyStore;
  /** `ADMIN_EMAILS`: confirmed addresses that are operators without the role. */
  readonly adminEmails?: readonly string[] | undefined;
  readonly operatorColumns?: readonly OperatorColumn[] | undefined;
  /** The audit trail: `GET /api/admin/audit`, and each user's last sign-in. */
  readonly auditLog?: AuditLog | undefined;
  /** The device list: a ban and a revocation delete the user's devices too. */
  readonly trackedSessions?: TrackedSessionStore | undefined;
  readonly findFactorSummary?: FindFactorSummary | undefined;
  readonly clock?: Clock | undefined;
}

type AdminContext = RouteContext & BearerUserContext;

/**
 * The operators' JSON routes under `/api/admin` (see {@link adminBearer}: anyone but an
 * operator with a token gets a 404): users searched and read, banned and unbanned, their
 * sign-ins ended, impersonated, and the audit trail read. Each change is recorded in the trail
 * with the operator as its actor. `POST /api/admin/impersonation/stop` takes the token an
 * operator acts as a user with instead (see {@link impersonatorBearer}).
 */
export function jsonAdminRoutes(options: JsonAdminRoutesOptions): Route[] {
  const clock = options.clock ?? systemClock;
  const operatorColumns = options.operatorColumns ?? [];
  const { users } = options;
  const parts = { ...options, clock };
  const json = (user: User) => adminUserJson(user, operatorColumns, clock());

  /** The user of the path's id, or the 404 answering a missing one. */
  async function subjectOf(context: AdminContext): Promise<User | Response> {
    const id = pathId(context.params.id);
    const user = id === undefined ? undefined : await users.findById(id);
    return user ?? notFound(context.locale);
  }

  const handlers = {
    async listUsers(request, context) {
      const url = new URL(request.url);
      const page = readListPage(url);
      if (!page.ok) return badRequest(page.reason);
      const query = url.searchParams.get("query") ?? "";
      if (query.length > 254 || unstorableText(query)) {
        return badRequest("query must be text of at most 254 characters");
      }
      const { rows, headers } = await loadListPage(url, page.value, (listed) =>
        users.searchUsers({ query, ...listed }),
      );
      return jsonAnswer(rows.map(json), { headers, locale: context.locale });
    },

    async showUser(_request, context) {
      const user = await subjectOf(context);
      if (user instanceof Response) return user;
      const facts = await loadUserFacts(parts, user);
      return jsonAnswer(
        {
          ...json(user),
          admin: facts.admin,
          mfa: facts.mfa,
          devices: facts.devices,
          api_keys: facts.apiKeys,
          last_sign_in: facts.lastSignIn && auditEventJson(facts.lastSignIn),
        },
        { locale: context.locale },
      );
    },

    async banUser(request, context) {
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const { reason, until } = body.value;
      if (typeof reason !== "string") return badRequest("reason must be a string");
      if (until !== undefined && until !== null && typeof until !== "string") {
        return badRequest("until must be a string or null");
      }
      const target = await subjectOf(context);
      if (target instanceof Response) return target;
      const { locale } = context;
      const ban = checkBanRequest(reason, until, clock());
      if (!ban.ok) return validationFailed(localizeFieldMessages(ban.fields, locale), locale);
      const banned = await banUser(parts, context.user, target, ban.value, { ...context, request });
      if (banned === "not-bannable")
        return accountErrorAnswer(adminErrors.adminNotBannable, locale);
      if (banned === "gone") return notFound(locale);
      return jsonAnswer(json(banned), { locale });
    },

    async unbanUser(request, context) {
      const target = await subjectOf(context);
      if (target instanceof Response) return target;
      const unbanned = await unbanUser(parts, context.user, target, { ...context, request });
      if (!unbanned) return notFound(context.locale);
      return jsonAnswer(json(unbanned), { locale: context.locale });
    },

    async revokeSessions(request, context) {
      const target = await subjectOf(context);
      if (target instanceof Response) return target;
      const ended = await endUserSignIns(parts, context.user, target, { ...context, request });
      return ended ? new Response(null, { status: 204 }) : notFound(context.locale);
    },

    async impersonate(request, context) {
      const target = await subjectOf(context);
      if (target instanceof Response) return target;
      const started = await startImpersonation(parts, context.user, target, {
        ...context,
        request,
      });
      if (started === "not-impersonable") {
        return accountErrorAnswer(adminErrors.notImpersonable, context.locale);
      }
      return tokenAnswer(await options.tokens.issue(target.id, started), context.locale);
    },

    async stopImpersonation(request, context) {
      const operatorId = Number(context.caller.authentication?.actor);
      await stopImpersonation(parts, operatorId, context.user, { ...context, request });
      return new Response(null, { status: 204 });
    },

    async listAudit(request, context) {
      const url = new URL(request.url);
      const page = readListPage(url);
      if (!page.ok) return badRequest(page.reason);
      const userText = url.searchParams.get("user_id");
      const userId = userText === null ? undefined : pathId(userText);
      if (userText !== null && userId === undefined) {
        return badRequest("user_id must be an integer of 1 or more");
      }
      const type = url.searchParams.get("type") ?? undefined;
      if (type !== undefined && !/^[a-z0-9_.]{1,100}$/.test(type)) {
        return badRequest("type must be an event type such as user.signed_in");
      }
      const log = options.auditLog;
      if (!log) return jsonAnswer([], { locale: context.locale });
      const { rows, headers } = await loadListPage(url, page.value, (listed) =>
        log.list({ userId, type, ...listed }),
      );
      return jsonAnswer(rows.map(auditEventJson), { headers, locale: context.locale });
    },
  } satisfies Record<string, RouteHandler<AdminContext>>;

  const operatorRoutes = withMiddleware(
    [
      { method: "GET", path: "/api/admin/users", handle: handlers.listUsers },
      { method: "GET", path: "/api/admin/users/:id", handle: handlers.showUser },
      { method: "POST", path: "/api/admin/users/:id/ban", handle: handlers.banUser },
      { method: "POST", path: "/api/admin/users/:id/unban", handle: handlers.unbanUser },
      {
        method: "POST",
        path: "/api/admin/users/:id/sessions/revoke",
        handle: handlers.revokeSessions,
      },
      {
        method: "POST",
        path: "/api/admin/users/:id/impersonate",
        handle: handlers.impersonate,
      },
      { method: "GET", path: "/api/admin/audit", handle: handlers.listAudit },
    ],
    adminBearer(options.bearer, options.adminEmails),
  );
  const impersonatorRoutes = withMiddleware(
    [
      {
        method: "POST",
        path: "/api/admin/impersonation/stop",
        handle: handlers.stopImpersonation,
      },
    ],
    impersonatorBearer(options.bearer),
  );
  return [...operatorRoutes, ...impersonatorRoutes];
}
