import type { RefreshTokenFamily, RefreshTokenStore } from "@tessera/bearer";
import { type Clock, formatTimestamp, systemClock } from "@tessera/core";
import {
  jsonAnswer,
  notFound,
  pathId,
  type Route,
  type RouteContext,
  type RouteHandler,
  withMiddleware,
} from "@tessera/http";
import {
  endTrackedSession,
  listTrackedSessions,
  type TrackedSession,
  type TrackedSessionStore,
} from "@tessera/session";
import type { AccountEvents } from "../account-hooks.js";
import { type BearerUserContext, bearerUser } from "../bearer-user.js";
import type { BearerAuthentication } from "../json-routes-options.js";
import { ownTokenRequired } from "../sign-in/recent-sign-in-refusal.js";
import { endAppSignIn, listAppSignIns } from "./app-sign-ins.js";

/** The path of the JSON device list; one device is `/api/auth/sessions/:id`. */
export const JSON_SESSIONS_PATH = "/api/auth/sessions";

/** A signed-in device as `GET /api/auth/sessions` answers it. */
export interface SessionJson {
  /** `browser-<n>` (a cookie sign-in) or `app-<n>` (a refresh token family). */
  readonly id: string;
  readonly kind: "browser" | "app";
  readonly user_agent: string | null;
  readonly ip_address: string | null;
  /** The sign-in, `YYYY-MM-DD HH:MM:SS` in UTC, as every timestamp of the API. */
  readonly created_at: string;
  /** A browser's last request (written at most once an hour), an app's last refresh. */
  readonly last_used_at: string;
  /** What signed it in (`["password", "totp"]`); empty when not recorded. */
  readonly factors: readonly string[];
}

/** What the JSON device routes are built from; at least one of the two stores is needed. */
export interface JsonSessionRoutesOptions {
  readonly bearer: BearerAuthentication;
  /** The browsers' sign-ins (the device list of cookie sessions). */
  readonly trackedSessions?: TrackedSessionStore | undefined;
  /** The apps' sign-ins (refresh token families). */
  readonly refreshTokens?: RefreshTokenStore | undefined;
  /** Where an ended device is recorded (the audit trail); default: nowhere. */
  readonly events?: AccountEvents | undefined;
  readonly clock?: Clock | undefined;
}

/** A browser's sign-in in the JSON API's words. */
export function browserSessionJson(session: TrackedSession): SessionJson {
  return {
    id: `browser-${session.id}`,
    kind: "browser",
    user_agent: session.userAgent,
    ip_address: session.ipAddress,
    created_at: formatTimestamp(session.createdAt),
    last_used_at: formatTimestamp(session.lastSeenAt),
    factors: session.factors,
  };
}

/** An app's sign-in (its refresh token family) in the JSON API's words. */
export function appSessionJson(family: RefreshTokenFamily): SessionJson {
  return {
    id: `app-${family.id}`,
    kind: "app",
    user_agent: family.userAgent,
    ip_address: family.ipAddress,
    created_at: formatTimestamp(family.createdAt),
    last_used_at: formatTimestamp(family.lastUsedAt),
    factors: family.factors,
  };
}

const SESSION_ID = /^(browser|app)-([^-]*)$/;

/** `browser-12` or `app-3` read from the path; undefined for anything else. */
function readSessionId(text: string | undefined) {
  const match = text === undefined ? null : SESSION_ID.exec(text);
  const id = match ? pathId(match[2]) : undefined;
  if (!match || id === undefined) return undefined;
  return { kind: match[1] as SessionJson["kind"], id };
}

type BearerContext = RouteContext & BearerUserContext;

/**
 * The JSON device list; each route requires a bearer token:
 * - `GET /api/auth/sessions` (a token or an API key): the bearer's signed-in browsers, most
 *   recently seen first, then their apps (refresh token families), newest sign-in first, as
 *   {@link SessionJson}; apps signed in before the credentials last changed are left out;
 * - `DELETE /api/auth/sessions/:id` (`browser-<n>` or `app-<n>`): 204 once that browser is
 *   signed out (at its next request) or that app's refresh token revoked; 404 `not_found` for
 *   any other id, another user's device included. Ending a device changes no credential, but
 *   it is refused to an API key (403 `api_key_not_allowed`) and to an operator acting as the
 *   user (403 `impersonation_not_allowed`): only the user's own token ends their devices.
 *
 * Without either store there is nothing to list: no routes at all (`[]`).
 */
export function jsonSessionRoutes(options: JsonSessionRoutesOptions): Route[] {
  const { trackedSessions, refreshTokens } = options;
  if (!trackedSessions && !refreshTokens) return [];
  const clock = options.clock ?? systemClock;

  const handlers = {
    async listSessions(_request, { user, locale }) {
      const browsers = trackedSessions
        ? await listTrackedSessions(trackedSessions, user.id, clock)
        : [];
      const apps = refreshTokens ? await listAppSignIns(refreshTokens, user, clock()) : [];
      return jsonAnswer([...browsers.map(browserSessionJson), ...apps.map(appSessionJson)], {
        locale,
      });
    },

    async endSession(request, context) {
      const { params, user, locale } = context;
      const target = readSessionId(params.id);
      if (target === undefined) return notFound(locale);
      const ended =
        target.kind === "browser"
          ? trackedSessions !== undefined &&
            (await endTrackedSession(trackedSessions, user.id, target.id))
          : refreshTokens !== undefined &&
            (await endAppSignIn(refreshTokens, user, target.id, clock()));
      if (!ended) return notFound(locale);
      await options.events?.audited(
        "user.session_revoked",
        user.id,
        { ...context, request },
        {
          details:
            target.kind === "browser"
              ? { session_id: target.id }
              : { refresh_family_id: target.id },
        },
      );
      return new Response(null, { status: 204 });
    },
  } satisfies Record<string, RouteHandler<BearerContext>>;

  return [
    ...withMiddleware(
      [{ method: "GET", path: JSON_SESSIONS_PATH, handle: handlers.listSessions }],
      bearerUser(options.bearer),
    ),
    ...withMiddleware(
      [{ method: "DELETE", path: `${JSON_SESSIONS_PATH}/:id`, handle: handlers.endSession }],
      bearerUser(options.bearer),
      ownTokenRequired(),
    ),
  ];
}
