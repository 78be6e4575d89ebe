import type { Fetch } from "./service-call.js";
import type { TokenHolder } from "./token-holder.js";

/** What {@link bearerFetch} is made of. */
export interface BearerFetchOptions {
  /** The service's address: only requests to its origin get the bearer token. */
  readonly baseUrl: string;
  /** The `fetch` that sends. */
  readonly fetch: Fetch;
  readonly tokens: TokenHolder;
  /**
   * Exchanges the held refresh token for a new pair (one exchange at a time, shared by every
   * caller); true when a new pair is held.
   */
  readonly refresh: () => Promise<boolean>;
}

/**
 * A `fetch` that adds `Authorization: Bearer <token>` from the holder to each request to the
 * service that has no `Authorization` of its own, and, when the service refuses the token (401)
 * and a refresh token is held, refreshes once and sends the request again with the new token.
 * Calls refused together wait on the same refresh; a call refused after another call already
 * refreshed is sent again at once. Without a new pair, the 401 is the answer.
 */
export function bearerFetch(options: BearerFetchOptions): Fetch {
  const serviceOrigin = new URL(options.baseUrl, globalThis.location?.href).origin;
  return async (request) => {
    if (new URL(request.url).origin !== serviceOrigin || request.headers.has("authorization")) {
      return options.fetch(request);
    }
    const sent = await options.tokens.get();
    if (!sent) return options.fetch(request);
    // Kept before sending, when it may be needed: a body can be read once.
    const again = sent.refreshToken ? request.clone() : undefined;
    const answer = await options.fetch(withBearer(request, sent.token));
    if (answer.status !== 401 || !again) return answer;
    const held = await options.tokens.get();
    const renewed = (held && held.token !== sent.token) || (await options.refresh());
    const token = renewed ? (await options.tokens.get())?.token : undefined;
    if (!token) return answer;
    await answer.body?.cancel();
    return options.fetch(withBearer(again, token));
  };
}

/** `request` with `Authorization: Bearer <token>`. */
function withBearer(request: Request, token: string): Request {
  const headers = new Headers(request.headers);
  headers.set("authorization", `Bearer ${token}`);
  return new Request(request, { headers });
}
