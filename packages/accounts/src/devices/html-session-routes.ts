import type { RefreshTokenStore } from "@tessera/bearer";
import { type Clock, type Locale, systemClock } from "@tessera/core";
import type { PageContext } from "@tessera/http";
import { htmlPage, pathId, type Route, seeOther, withMiddleware } from "@tessera/http";
import {
  checkTrackedSession,
  endOtherTrackedSessions,
  endTrackedSession,
  type HtmlRouteSafety,
  listTrackedSessions,
  type MaybeSessionContext,
  pageSafety,
  requireUser,
  sessionPageContext,
  type TrackedSession,
  type TrackedSessionStore,
} from "@tessera/session";
import type { AccountEvents } from "../account-hooks.js";
import { accountMessages } from "../account-messages.js";
import type { HtmlRequestContext } from "../html/html-routes-options.js";
import type { User } from "../users/user.js";
import type { UserStore } from "../users/user-store.js";
import { endAllAppSignIns, endAppSignIn, listAppSignIns } from "./app-sign-ins.js";
import type { SessionPages } from "./sessions-page.js";

/** The list of signed-in devices, where both end actions return. */
export const SESSIONS_PATH = "/account/sessions";

/** Flash after the other devices were signed out, with how many there were, in `locale`. */
export function otherSessionsEndedMessage(count: number, locale?: Locale): string {
  return accountMessages.text(locale, "accounts.other_sessions_ended", { count });
}

/** What the signed-in devices routes are built from. */
export interface HtmlSessionRoutesOptions extends HtmlRouteSafety {
  /** Only `findById` is used: the page needs the signed-in user. */
  readonly users: Pick<UserStore, "findById">;
  readonly pages: SessionPages;
  readonly clock?: Clock | undefined;
  /** Where an ended device is recorded (the audit trail); default: nowhere. */
  readonly events?: AccountEvents | undefined;
  /**
   * The apps' sign-ins (refresh token families): listed under the browsers, each ended by
   * `POST /account/sessions/apps/:id/delete`, and all ended with the other devices. Without
   * it the page lists browsers only.
   */
  readonly refreshTokens?: RefreshTokenStore | undefined;
}

type Handler = Route<HtmlRequestContext>["handle"];

type DeviceAccess =
  | { readonly ok: true; readonly user: User; readonly current: TrackedSession }
  | { readonly ok: false; readonly response: Response };

/**
 * The routes of the signed-in devices page: `GET /account/sessions`,
 * `POST /account/sessions/:id/delete` and `POST /account/sessions/others/delete`, and with
 * `refreshTokens` `POST /account/sessions/apps/:id/delete` (an app's sign-in, by its family
 * id); "others" then ends every app too. `sessions` must track devices (`trackedSessions`).
 * Each one checks this browser's own tracked session first, so a device ended elsewhere is
 * signed out here even where the app checks nothing else; then requires a signed-in user. Every
 * change is scoped to that user (an app: among the families its page lists), and a session of
 * someone else is answered like a missing one: an HTML 404.
 * @throws {TypeError} when `sessions` has no `trackedSessions`: a configuration mistake.
 */
export function htmlSessionRoutes(options: HtmlSessionRoutesOptions): Route<MaybeSessionContext>[] {
  const clock = options.clock ?? systemClock;
  const tracked = options.sessions.trackedSessions;
  if (!tracked) throw new TypeError("htmlSessionRoutes needs session cookies with trackedSessions");
  const store: TrackedSessionStore = tracked;
  const { pages, refreshTokens } = options;
  const loadUser = (id: number): Promise<User | undefined> => options.users.findById(id);

  async function requireDevice(
    request: Request,
    context: HtmlRequestContext,
  ): Promise<DeviceAccess> {
    const tracked = await checkTrackedSession(store, context.session, clock);
    const access = await requireUser(context.session, request, loadUser, context.locale);
    if (!access.ok) return { ok: false, response: access.response };
    // A refused check signed the session out, so requireUser has refused it just above.
    if (!tracked.ok) throw new Error(`a ${tracked.reason} tracked session kept its user`);
    return { ok: true, user: access.value, current: tracked.value };
  }

  /** Takes the waiting flashes: call it once, for the page being rendered (in its locale). */
  function pageContext(context: HtmlRequestContext, user: User): PageContext {
    return sessionPageContext(context, user.email);
  }

  const handlers = {
    async sessionsPage(request, context) {
      const device = await requireDevice(request, context);
      if (!device.ok) return device.response;
      const { user, current } = device;
      const listed = await listTrackedSessions(store, user.id, clock);
      // This device first; the store gives the others most recently seen first.
      const sessions = [
        ...listed.filter((session) => session.id === current.id),
        ...listed.filter((session) => session.id !== current.id),
      ];
      const apps = refreshTokens && (await listAppSignIns(refreshTokens, user, clock()));
      return htmlPage(
        200,
        pages.sessions({
          context: pageContext(context, user),
          sessions,
          currentId: current.id,
          ...(apps ? { apps } : {}),
        }),
      );
    },

    async endSession(request, context) {
      const device = await requireDevice(request, context);
      if (!device.ok) return device.response;
      const { user, current } = device;
      const sessionId = pathId(context.params.id);
      const ended = sessionId !== undefined && (await endTrackedSession(store, user.id, sessionId));
      if (!ended) return htmlPage(404, pages.notFound({ context: pageContext(context, user) }));
      await options.events?.audited(
        "user.session_revoked",
        user.id,
        { ...context, request },
        {
          details: { session_id: sessionId, this_device: sessionId === current.id },
        },
      );
      // Ending this very device signs this browser out now, not at its next request: the
      // list it returns to then asks to log in again, and brings the user back to it.
      if (sessionId === current.id) context.session.signOut();
      context.session.flash(
        "notice",
        accountMessages.text(context.locale, "accounts.session_ended"),
      );
      return seeOther(SESSIONS_PATH);
    },

    async endApp(request, context) {
      const device = await requireDevice(request, context);
      if (!device.ok) return device.response;
      const { user } = device;
      const familyId = pathId(context.params.id);
      const ended =
        refreshTokens !== undefined &&
        familyId !== undefined &&
        (await endAppSignIn(refreshTokens, user, familyId, clock()));
      if (!ended) return htmlPage(404, pages.notFound({ context: pageContext(context, user) }));
      await options.events?.audited(
        "user.session_revoked",
        user.id,
        { ...context, request },
        { details: { refresh_family_id: familyId } },
      );
      context.session.flash(
        "notice",
        accountMessages.text(context.locale, "accounts.app_session_ended"),
      );
      return seeOther(SESSIONS_PATH);
    },

    async endOtherSessions(request, context) {
      const device = await requireDevice(request, context);
      if (!device.ok) return device.response;
      const browsers = await endOtherTrackedSessions(store, device.user.id, device.current.id);
      const apps = refreshTokens
        ? await endAllAppSignIns(refreshTokens, device.user.id, clock())
        : 0;
      const count = browsers + apps;
      if (count > 0) {
        await options.events?.audited(
          "user.session_revoked",
          device.user.id,
          {
            ...context,
            request,
          },
          { details: { others: count, ...(refreshTokens ? { refresh_families: apps } : {}) } },
        );
      }
      context.session.flash("notice", otherSessionsEndedMessage(count, context.locale));
      return seeOther(SESSIONS_PATH);
    },
  } satisfies Record<string, Handler>;

  const appRoute: Route<HtmlRequestContext> = {
    method: "POST",
    path: `${SESSIONS_PATH}/apps/:id/delete`,
    handle: handlers.endApp,
  };
  return withMiddleware(
    [
      { method: "GET", path: SESSIONS_PATH, handle: handlers.sessionsPage },
      { method: "POST", path: `${SESSIONS_PATH}/others/delete`, handle: handlers.endOtherSessions },
      { method: "POST", path: `${SESSIONS_PATH}/:id/delete`, handle: handlers.endSession },
      ...(refreshTokens ? [appRoute] : []),
    ],
    pageSafety(options),
  );
}
