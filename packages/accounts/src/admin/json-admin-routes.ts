import type { ApiKeyStore } from "@tessera/bearer";
import {
  BLANK,
  type Clock,
  formatTimestamp,
  INVALID,
  localizeFieldMessages,
  parseTimestamp,
  systemClock,
  tooLongMessage,
  unstorableText,
} from "@tessera/core";
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
import { endOtherTrackedSessions, type TrackedSessionStore } from "@tessera/session";
import { accountErrorAnswer } from "../account-errors.js";
import type { AccountEvents } from "../account-hooks.js";
import { accountMessages } from "../account-messages.js";
import { auditEventJson } from "../audit/audit-json.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { BearerUserContext } from "../bearer-user.js";
import type { BearerAuthentication } from "../json-routes-options.js";
import type { OperatorColumn } from "../profile/operator-columns.js";
import type { FindFactorSummary } from "../second-factor/factor-summary.js";
import type { User } from "../users/user.js";
import type { UserAdministration, UserStore } from "../users/user-store.js";
import { adminBearer, isAdmin } from "./admin-access.js";
import { adminErrors } from "./admin-errors.js";
import { adminUserJson } from "./admin-user-json.js";

/** The longest ban reason kept, in characters. */
export const MAXIMUM_BAN_REASON_LENGTH = 500;

/** What the admin routes are built from. */
export interface JsonAdminRoutesOptions {
  readonly users: UserStore & UserAdministration;
  readonly bearer: BearerAuthentication;
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
 * sign-ins ended, and the audit trail read. Each change is recorded in the trail with the
 * operator as its actor.
 */
export function jsonAdminRoutes(options: JsonAdminRoutesOptions): Route[] {
  const clock = options.clock ?? systemClock;
  const operatorColumns = options.operatorColumns ?? [];
  const { users, events } = options;
  const json = (user: User) => adminUserJson(user, operatorColumns, clock());

  /** The user of the path's id, or the 404 answering a missing one. */
  async function subjectOf(context: AdminContext): Promise<User | Response> {
    const id = pathId(context.params.id);
    const user = id === undefined ? undefined : await users.findById(id);
    return user ?? notFound(context.locale);
  }

  /** Deletes the user's devices (with the device list on): they are signed out everywhere. */
  async function endDevices(userId: number): Promise<void> {
    if (options.trackedSessions) await endOtherTrackedSessions(options.trackedSessions, userId);
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
      const [summary, devices, keys, lastSignIn] = await Promise.all([
        options.findFactorSummary?.(user.id),
        options.trackedSessions?.listForUser(user.id, clock()),
        options.apiKeys.listForUser(user.id),
        options.auditLog?.list({ userId: user.id, type: "user.signed_in", limit: 1 }),
      ]);
      const last = lastSignIn?.[0];
      return jsonAnswer(
        {
          ...json(user),
          admin: isAdmin(user, options.adminEmails),
          mfa: summary ? { totp: summary.totp, passkeys: summary.passkeys } : null,
          devices: devices?.length ?? null,
          api_keys: keys.length,
          last_sign_in: last ? auditEventJson(last) : null,
        },
        { locale: context.locale },
      );
    },

    async banUser(request, context) {
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const user = await subjectOf(context);
      if (user instanceof Response) return user;
      const ban = readBan(body.value, clock());
      if (!ban.ok) {
        const { locale } = context;
        return ban.response ?? validationFailed(localizeFieldMessages(ban.fields, locale), locale);
      }
      if (isAdmin(user, options.adminEmails)) {
        return accountErrorAnswer(adminErrors.adminNotBannable, context.locale);
      }
      const banned = await users.ban(user.id, ban.value, clock());
      if (!banned) return notFound(context.locale);
      await endDevices(user.id);
      await events.audited(
        "user.banned",
        user.id,
        { ...context, request },
        {
          actorId: context.user.id,
          details: {
            reason: ban.value.reason,
            until: ban.value.until === null ? null : formatTimestamp(ban.value.until),
          },
        },
      );
      return jsonAnswer(json(banned), { locale: context.locale });
    },

    async unbanUser(request, context) {
      const user = await subjectOf(context);
      if (user instanceof Response) return user;
      const unbanned = await users.unban(user.id, clock());
      if (!unbanned) return notFound(context.locale);
      await events.audited(
        "user.unbanned",
        user.id,
        { ...context, request },
        {
          actorId: context.user.id,
        },
      );
      return jsonAnswer(json(unbanned), { locale: context.locale });
    },

    async revokeSessions(request, context) {
      const user = await subjectOf(context);
      if (user instanceof Response) return user;
      if (!(await users.endSignIns(user.id, clock()))) return notFound(context.locale);
      await endDevices(user.id);
      await events.audited(
        "user.session_revoked",
        user.id,
        { ...context, request },
        {
          actorId: context.user.id,
          details: { everywhere: true },
        },
      );
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

  return withMiddleware(
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
      { method: "GET", path: "/api/admin/audit", handle: handlers.listAudit },
    ],
    adminBearer(options.bearer, options.adminEmails),
  );
}

type BanReading =
  | {
      readonly ok: true;
      readonly value: { readonly reason: string; readonly until: number | null };
    }
  | { readonly ok: false; readonly response?: Response; readonly fields: Record<string, string[]> };

/**
 * A ban's body: `reason` (text, 1–500 characters once trimmed) and optional `until`
 * (`YYYY-MM-DD HH:MM:SS` in UTC, as the API writes times, in the future; null or absent: until
 * lifted). A value of the wrong type is a 400, a bad value a 422 naming its field.
 */
function readBan(body: Record<string, unknown>, now: number): BanReading {
  const reason = Object.hasOwn(body, "reason") ? body.reason : undefined;
  const until = Object.hasOwn(body, "until") ? body.until : undefined;
  if (typeof reason !== "string") {
    return { ok: false, response: badRequest("reason must be a string"), fields: {} };
  }
  if (until !== undefined && until !== null && typeof until !== "string") {
    return { ok: false, response: badRequest("until must be a string or null"), fields: {} };
  }
  const fields: Record<string, string[]> = {};
  const trimmed = reason.trim();
  if (trimmed === "") fields.reason = [BLANK];
  else if ([...trimmed].length > MAXIMUM_BAN_REASON_LENGTH) {
    fields.reason = [tooLongMessage(MAXIMUM_BAN_REASON_LENGTH)];
  } else if (unstorableText(trimmed)) fields.reason = [INVALID];
  const end = typeof until === "string" ? parseTimestamp(until) : null;
  if (end !== null && Number.isNaN(end)) fields.until = [INVALID];
  else if (end !== null && end <= now) {
    fields.until = [accountMessages.english["accounts.admin.until_past"]];
  }
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return { ok: true, value: { reason: trimmed, until: end } };
}
