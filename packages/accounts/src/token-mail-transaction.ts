import type { Mailer } from "@tessera/mail";
import type { EmailChangeStore } from "./email-change/email-change-store.js";
import type { EmailCodeStore } from "./email-code/email-code-store.js";
import type { EmailedTokenStore } from "./email-link/emailed-token-store.js";

/**
 * The token stores and the mailer that one {@link TokenMailTransaction} writes through (a SQL
 * transaction gives every store; a route uses the one it needs).
 */
export interface TokenMailScope {
  readonly emailedTokens?: EmailedTokenStore | undefined;
  readonly emailCodes?: EmailCodeStore | undefined;
  /** Pending email changes, whose link goes to the new address. */
  readonly emailChanges?: EmailChangeStore | undefined;
  /** A mailer that stores mail through the transaction (an outbox's), never one that sends. */
  readonly mailer: Mailer;
}

/**
 * Runs `work` in one database transaction, with the token stores and a mailer that all write
 * through it: a token (or code) and the mail that carries it are kept together or not at all, so a
 * crash or a failed write never leaves a token whose mail was lost (nor a mail whose token was
 * not kept). Rejects, with nothing written, when `work` or the commit does.
 * `sqlTokenMailTransaction` of `@tessera/accounts/sql` makes one over a `SqlDatabase`.
 */
export type TokenMailTransaction = (
  work: (scope: TokenMailScope) => Promise<void>,
) => Promise<void>;
