import type { SqlDatabase, SqlValue } from "@tessera/sql";

/** PostgreSQL's message for a text parameter holding NUL (SQLSTATE 22021). */
export const POSTGRES_NUL_ERROR = 'invalid byte sequence for encoding "UTF8": 0x00';

function refuseNul(params: readonly SqlValue[] = []): void {
  if (params.some((param) => typeof param === "string" && param.includes("\u0000"))) {
    throw new Error(POSTGRES_NUL_ERROR);
  }
}

/**
 * `database` (SQLite, say) refusing a text parameter that holds NUL the way PostgreSQL does,
 * for package tests that run without a PostgreSQL server: a NUL that reaches a statement
 * throws there as it would in production on PostgreSQL.
 */
export function nulRefusingDatabase(database: SqlDatabase): SqlDatabase {
  return {
    dialect: database.dialect,
    async run(sql, params) {
      refuseNul(params);
      return database.run(sql, params);
    },
    async get(sql, params) {
      refuseNul(params);
      return database.get(sql, params);
    },
    async all(sql, params) {
      refuseNul(params);
      return database.all(sql, params);
    },
    execScript: (sql) => database.execScript(sql),
    transaction: (work) => database.transaction((inner) => work(nulRefusingDatabase(inner))),
  };
}
