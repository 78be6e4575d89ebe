import { htmlPage, loadListPage, type Route, readListPage, withMiddleware } from "@tessera/http";
import {
  type HtmlRouteSafety,
  type MaybeSessionContext,
  pageSafety,
  sessionPageContext,
} from "@tessera/session";
import type { SignedInContext } from "../html/html-routes-options.js";
import { signedInPage } from "../html/signed-in-page.js";
import type { UserStore } from "../users/user-store.js";
import type { ActivityPage } from "./activity-page.js";
import type { AuditLog } from "./audit-log.js";

/** What `/account/activity` is built from. */
export interface HtmlActivityRoutesOptions extends HtmlRouteSafety {
  readonly users: UserStore;
  readonly auditLog: AuditLog;
  readonly activityPage: ActivityPage;
}

/**
 * `GET /account/activity?after=` (signed in): the user's own audit events, newest first, 50 a
 * page with a link to older ones. Query values that are not a page answer the first page.
 */
export function htmlActivityRoutes(
  options: HtmlActivityRoutesOptions,
): Route<MaybeSessionContext>[] {
  async function showOwnActivity(request: Request, context: SignedInContext): Promise<Response> {
    const url = new URL(request.url);
    const asked = readListPage(url);
    const page = asked.ok ? asked.value : { limit: 50, offset: 0 };
    const { rows, next } = await loadListPage(url, page, (listed) =>
      options.auditLog.list({ userId: context.user.id, ...listed }),
    );
    const body = options.activityPage({
      context: sessionPageContext(context, context.user.email),
      events: rows,
      olderHref: next,
    });
    return htmlPage(200, body);
  }

  return withMiddleware(
    withMiddleware(
      [{ method: "GET", path: "/account/activity", handle: showOwnActivity }],
      signedInPage(options.users),
    ),
    pageSafety(options),
  );
}
