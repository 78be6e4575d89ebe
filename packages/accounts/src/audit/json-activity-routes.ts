import {
  badRequest,
  jsonAnswer,
  loadListPage,
  type Route,
  type RouteContext,
  readListPage,
  withMiddleware,
} from "@tessera/http";
import { type BearerUserContext, bearerUser } from "../bearer-user.js";
import type { JsonAccountRoutesOptions } from "../json-routes-options.js";
import { auditEventJson } from "./audit-json.js";
import type { AuditLog } from "./audit-log.js";

/** What `GET /api/auth/activity` is built from. */
export interface JsonActivityRoutesOptions extends Pick<JsonAccountRoutesOptions, "bearer"> {
  readonly auditLog: AuditLog;
}

/**
 * `GET /api/auth/activity?limit=&after=` (a token or an API key): the bearer's own audit
 * events, newest first, paged as every listing is (`limit` 1–100, default 50; `offset`, or
 * `after` an id),
 * with a `Link` to the next page.
 */
export function jsonActivityRoutes(options: JsonActivityRoutesOptions): Route[] {
  async function listOwnActivity(
    request: Request,
    context: RouteContext & BearerUserContext,
  ): Promise<Response> {
    const url = new URL(request.url);
    const page = readListPage(url);
    if (!page.ok) return badRequest(page.reason);
    const { user, locale } = context;
    const { rows, headers } = await loadListPage(url, page.value, (listed) =>
      options.auditLog.list({ userId: user.id, ...listed }),
    );
    return jsonAnswer(rows.map(auditEventJson), { headers, locale });
  }

  return withMiddleware(
    [{ method: "GET", path: "/api/auth/activity", handle: listOwnActivity }],
    bearerUser(options.bearer),
  );
}
