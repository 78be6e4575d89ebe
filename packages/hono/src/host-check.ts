import { createHostCheck } from "@tessera/http";
import type { MiddlewareHandler } from "hono";

/** Options of {@link hostCheck}. */
export interface HostCheckOptions {
  /**
   * The hosts the app serves: `APP_URL`'s host and `ALLOWED_HOSTS` (`parseAllowedHosts` of
   * `@tessera/http` reads it). Ports are not compared.
   */
  readonly allowedHosts: readonly string[];
}

/**
 * Refuses a request whose `Host` names none of `allowedHosts` (or that has none) with a 400
 * envelope naming `ALLOWED_HOSTS`, before any later middleware or route runs
 * (`createHostCheck` of `@tessera/http`). Register it in production, right after
 * `securityHeaders`, so the refusal carries the headers too.
 * @throws {TypeError} for an empty list or an entry that is not a host name.
 */
export function hostCheck(options: HostCheckOptions): MiddlewareHandler {
  const refusal = createHostCheck(options.allowedHosts);
  // Not an async function: a host let through hands Hono the rest of the chain's own promise,
  // with no promise of this step wrapped around it (it runs on every request).
  return (context, next) => {
    const refused = refusal(context.req.raw);
    return refused ? Promise.resolve(refused) : next();
  };
}
