import { TesseraError } from "./tessera-error.js";
import type { TokenPair } from "./token-holder.js";

/**
 * The body of every way in (`POST /api/auth/token` and its siblings): the bearer token, its
 * lifetime, and a refresh token when one was asked for and the service issues them.
 */
export interface TokenAnswer {
  readonly token: string;
  readonly token_type: "Bearer";
  readonly expires_in: number;
  readonly refresh_token?: string | undefined;
  readonly refresh_expires_in?: number | undefined;
}

/** The {@link TokenPair} of a way in's 200 body; a body without a token is an unexpected answer. */
export function tokenPairOf(body: unknown): TokenPair {
  const answer = body as Partial<TokenAnswer> | undefined;
  if (typeof answer?.token !== "string") throw new TesseraError(200, body);
  return typeof answer.refresh_token === "string"
    ? { token: answer.token, refreshToken: answer.refresh_token }
    : { token: answer.token };
}
