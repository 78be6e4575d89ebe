import {
  attemptRateLimit,
  htmlPage,
  type RouteMiddleware,
  rateLimit,
  retryAfter,
} from "@tessera/http";
import type { RateLimiter } from "@tessera/ratelimit";
import type { UserStore } from "../users/user-store.js";
import { accountPageContext, currentPageUser } from "./account-page-context.js";
import type { AccountPages } from "./account-pages.js";
import type { HtmlRequestContext } from "./html-routes-options.js";

/** What a page's rate limit reads: the limiter, and the pages and users of its 429 page. */
export interface PageRateLimitParts {
  readonly rateLimiter: RateLimiter;
  readonly pages: AccountPages;
  readonly users: UserStore;
}

/** The 429 page, with `Retry-After`, of every rate-limited HTML account route. */
export async function tooManyRequestsPage(
  parts: PageRateLimitParts,
  context: HtmlRequestContext,
  retryAfterSeconds: number,
): Promise<Response> {
  const user = await currentPageUser(context, parts.users);
  return htmlPage(
    429,
    parts.pages.tooManyRequests({ context: accountPageContext(context, user) }),
    retryAfter(retryAfterSeconds),
  );
}

/**
 * A route middleware counting one attempt of `group` for the client before the handler runs,
 * and answering {@link tooManyRequestsPage} once it is over the limit.
 */
export function pageRateLimit<C extends HtmlRequestContext = HtmlRequestContext>(
  parts: PageRateLimitParts,
  group: string,
): RouteMiddleware<C, C> {
  return rateLimit<C>({
    limiter: parts.rateLimiter,
    group,
    refusal: (_request, context, seconds) => tooManyRequestsPage(parts, context, seconds),
  });
}

/**
 * One attempt of `group` for each key, in order (the client's, `rateLimitClientKey`, then each
 * target's, `email:<address>`), and the 429 page once one is over the limit. The keys after a
 * refused one are not counted, so a refused stranger neither adds counters nor uses up a
 * target's allowance. Mail routes call it in their handler, once they know the target.
 */
export async function refusePageOverLimit(
  parts: PageRateLimitParts,
  context: HtmlRequestContext,
  group: string,
  keys: readonly string[],
): Promise<Response | undefined> {
  const retryAfter = await attemptRateLimit(parts.rateLimiter, group, keys);
  return retryAfter === undefined ? undefined : tooManyRequestsPage(parts, context, retryAfter);
}
