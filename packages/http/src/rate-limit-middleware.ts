import { rateLimitClientKey } from "./client-ip.js";
import { tooManyRequests } from "./error-envelope.js";
import type { RouteContext } from "./route.js";
import type { RouteMiddleware, RouteRefusal } from "./route-middleware.js";

/**
 * Counts attempts per group and key (`createRateLimiter` of @tessera/ratelimit fits). Declared
 * here by shape so that @tessera/http needs no storage package.
 */
export interface AttemptCounter {
  attempt(
    group: string,
    key: string,
  ): Promise<{ readonly allowed: boolean; readonly retryAfterSeconds: number }>;
}

/**
 * Records one attempt of `group` for each key, in order, and gives the seconds to wait before
 * trying again once one is over its limit, else undefined. The keys after a refused one are
 * not counted: with the client's key first and a target's after (`email:<address>`), a refused
 * client neither adds counters nor uses up the target's allowance.
 */
export async function attemptRateLimit(
  limiter: AttemptCounter,
  group: string,
  keys: readonly string[],
): Promise<number | undefined> {
  for (const key of keys) {
    const decision = await limiter.attempt(group, key);
    if (!decision.allowed) return decision.retryAfterSeconds;
  }
  return undefined;
}

/** Options of {@link rateLimit}: what is counted and how a refusal is answered. */
export interface RateLimitOptions<C extends RouteContext> {
  readonly limiter: AttemptCounter;
  /** The group counted (`"login"`); its limit and window are the limiter's. */
  readonly group: string;
  /** Who is counted; default the client address ({@link rateLimitClientKey}). */
  readonly key?: ((request: Request, context: C) => string) | undefined;
  /**
   * The answer once over the limit, given the seconds to wait: default the JSON 429 with
   * `Retry-After`; page routes render their 429 page.
   */
  readonly refusal?: RouteRefusal<C, number> | undefined;
}

/**
 * A middleware counting one attempt of `group` per request before the handler runs, and
 * answering the refusal instead once the key is over its limit (refused attempts count too).
 */
export function rateLimit<C extends RouteContext = RouteContext>(
  options: RateLimitOptions<C>,
): RouteMiddleware<C, C> {
  const keyOf = options.key ?? ((_request, context) => rateLimitClientKey(context.clientAddress));
  const refuse =
    options.refusal ?? ((_request, context, seconds) => tooManyRequests(seconds, context.locale));
  return (next) => async (request, context) => {
    const key = keyOf(request, context);
    const retryAfter = await attemptRateLimit(options.limiter, options.group, [key]);
    return retryAfter === undefined ? next(request, context) : refuse(request, context, retryAfter);
  };
}
