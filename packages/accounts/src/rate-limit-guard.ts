import { rateLimitClientKey, tooManyRequests } from "@tessera/http";
import type { RateLimiter } from "@tessera/ratelimit";

/**
 * Records one attempt of `group` for the client and returns the 429 to send when over the
 * limit (JSON envelope, `Retry-After`), or undefined to go on.
 */
export async function refuseWhenRateLimited(
  limiter: RateLimiter,
  group: string,
  clientAddress: string,
): Promise<Response | undefined> {
  const decision = await limiter.attempt(group, rateLimitClientKey(clientAddress));
  return decision.allowed ? undefined : tooManyRequests(decision.retryAfterSeconds);
}
