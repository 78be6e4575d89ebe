import type { SqlDatabase } from "@tessera/sql";
import type { FindFactorSummary } from "./factor-summary.js";

// Both counts by the user's index in one statement: `GET /api/auth/me` asked the TOTP store and
// then the passkey store, two round trips through the driver on every call.
const FACTOR_SUMMARY_SQL = `SELECT
  (SELECT COUNT(*) FROM user_totp WHERE user_id = ? AND confirmed_at IS NOT NULL) AS totp,
  (SELECT COUNT(*) FROM passkeys WHERE user_id = ?) AS passkeys`;

/**
 * A user's confirmed TOTP and passkey count in one statement, from the tables of
 * `SqlSecondFactorStore` and `SqlPasskeyStore` on `database`.
 */
export function sqlFactorSummary(database: SqlDatabase): FindFactorSummary {
  return async (userId) => {
    const row = await database.get<{ totp: number | string; passkeys: number | string }>(
      FACTOR_SUMMARY_SQL,
      [userId, userId],
    );
    // PostgreSQL's COUNT is a bigint, which drivers give as text.
    return { totp: Number(row?.totp ?? 0) > 0, passkeys: Number(row?.passkeys ?? 0) };
  };
}
