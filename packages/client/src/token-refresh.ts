import { ACCOUNT_ROUTES } from "./account-routes.js";
import { callService, type Fetch } from "./service-call.js";
import { TesseraError } from "./tessera-error.js";
import { tokenPairOf } from "./token-answer.js";
import type { TokenHolder } from "./token-holder.js";

/** What {@link tokenRefresher} needs: the service, the `fetch` to it, and the holder. */
export interface TokenRefresherOptions {
  readonly baseUrl: string;
  readonly fetch: Fetch;
  readonly tokens: TokenHolder;
}

/**
 * The refresh of the held pair: `POST /api/auth/token/refresh {refresh_token}` answers a new
 * pair (the one sent is used up), which replaces it. True when a new pair is held; false when
 * no refresh token is held or the service refused it (401: used, revoked, expired, or the
 * account changed), and then the pair is cleared: signed out. Any other refusal throws a
 * {@link TesseraError}. One refresh runs at a time: a call while one runs gets its outcome.
 */
export function tokenRefresher(options: TokenRefresherOptions): () => Promise<boolean> {
  let running: Promise<boolean> | undefined;

  async function refreshOnce(): Promise<boolean> {
    const held = await options.tokens.get();
    if (!held?.refreshToken) return false;
    const answer = await callService(
      options.fetch,
      options.baseUrl,
      "POST",
      ACCOUNT_ROUTES.refresh,
      { refresh_token: held.refreshToken },
    );
    if (answer.status === 200) {
      await options.tokens.set(tokenPairOf(answer.body));
      return true;
    }
    if (answer.status !== 401) throw new TesseraError(answer.status, answer.body);
    await options.tokens.clear();
    return false;
  }

  return () => {
    running ??= refreshOnce().finally(() => {
      running = undefined;
    });
    return running;
  };
}
