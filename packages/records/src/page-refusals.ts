import { errorEnvelopeMessage, type RouteMiddleware } from "@tessera/http";
import type { RecordContext } from "./record-options.js";
import type { RecordScopeInput } from "./record-owner.js";

/**
 * A scope's owner middleware for pages: when it refuses (answers without calling on), its
 * answer, a JSON error envelope, becomes `refusalPage(status, context, message)`, the
 * envelope's message said on a page of the same status. What the scope of an organization's
 * records answers its JSON routes (a 404 for a stranger, a 403 naming the permission) is then a
 * page for the pages. A scope hands on the context it was given with the owner added (as
 * `userRecords` and `organizationRecords` do), so the page's own members (its session, nonce)
 * are still there after it.
 */
export function pageRefusals<C extends RecordScopeInput>(
  middleware: RouteMiddleware<RecordScopeInput, RecordScopeInput & RecordContext>,
  refusalPage: (status: number, context: C, message: string) => Response,
): RouteMiddleware<C, C & RecordContext> {
  return (next, route) => async (request, context) => {
    // Built for each request: whether this request reached the handler is its own to know.
    let reached = false;
    const guarded = middleware((inner, innerContext) => {
      reached = true;
      return next(inner, innerContext as C & RecordContext);
    }, route);
    const answer = await guarded(request, context);
    if (reached || answer.status < 400) return answer;
    return refusalPage(answer.status, context, await errorEnvelopeMessage(answer));
  };
}
