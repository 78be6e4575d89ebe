import type { Mailer } from "@tessera/mail";
import type { EmailedTokenStore } from "./emailed-token-store.js";

/** The token store and the mailer that one {@link TokenMailTransaction} writes through. */
export interface TokenMailScope {
  readonly emailedTokens: EmailedTokenStore;
  /** A mailer that stores mail through the transaction (an outbox's), never one that sends. */
  readonly mailer: Mailer;
}

/**
 * Runs `work` in one database transaction, with an emailed-token store and a mailer that both
 * write through it: a token and the mail that carries it are kept together or not at all, so a
 * crash or a failed write never leaves a token whose mail was lost (nor a mail whose token was
 * not kept). Rejects, with nothing written, when `work` or the commit does.
 * `sqlTokenMailTransaction` of `@tessera/accounts/sql` makes one over a `SqlDatabase`.
 */
export type TokenMailTransaction = (
  work: (scope: TokenMailScope) => Promise<void>,
) => Promise<void>;
