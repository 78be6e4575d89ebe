import type { Mailer } from "@tessera/mail";
import type { SqlDatabase } from "@tessera/sql";
import { SqlEmailChangeStore } from "../email-change/sql-email-change-store.js";
import { SqlEmailCodeStore } from "../email-code/sql-email-code-store.js";
import { SqlEmailedTokenStore } from "../email-link/sql-emailed-token-store.js";
import type { TokenMailTransaction } from "../token-mail-transaction.js";

/**
 * A {@link TokenMailTransaction} on `database`: each run opens one transaction, in which the
 * token is written to `auth_tokens` (a code to `email_codes`, an email change to
 * `email_changes`) and the mail by
 * `mailerWithin(transaction)`, which must
 * store mail through the handle it is given (the outbox on the same database).
 *
 * @example
 * ```ts
 * import { sqlTokenMailTransaction } from "@tessera/accounts/sql";
 * import { outboxMailer } from "@tessera/mail/outbox";
 * import { SqlOutbox } from "@tessera/outbox/sql";
 * import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
 *
 * const database = openSqliteFile("data/app.db");
 * const outbox = new SqlOutbox(database);
 * const tokenMailTransaction = sqlTokenMailTransaction(database, (writer) =>
 *   outboxMailer({ outbox, writer }),
 * );
 * // accountRoutes({ ..., mailer: outboxMailer({ outbox, writer: database }), tokenMailTransaction })
 * ```
 */
export function sqlTokenMailTransaction(
  database: SqlDatabase,
  mailerWithin: (transaction: SqlDatabase) => Mailer,
): TokenMailTransaction {
  return (work) =>
    database.transaction((transaction) =>
      work({
        emailedTokens: new SqlEmailedTokenStore(transaction),
        emailCodes: new SqlEmailCodeStore(transaction),
        emailChanges: new SqlEmailChangeStore(transaction),
        mailer: mailerWithin(transaction),
      }),
    );
}
