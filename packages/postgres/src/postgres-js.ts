import type { SqlDatabase, SqlValue } from "@tessera/sql";
import type { Sql, TransactionSql } from "postgres";
import { INT8, parseInt8 } from "./int8.js";
import { numberedStatement } from "./placeholders.js";

// Opening a database and migrating it go together: an app that installs only this driver
// (strict pnpm sees no transitive @tessera/sql) imports both from here.
export { applyMigrations, type Migration } from "@tessera/sql";

/** What runs statements: the client, or a transaction (or savepoint) open on it. */
type Target = Sql | TransactionSql;

/** A bigint binds as its digits (the server knows the column's type); the rest as they are. */
function bindable(params: readonly SqlValue[]) {
  return params.map((value) => (typeof value === "bigint" ? value.toString() : value));
}

async function query(target: Target, sql: string, params: readonly SqlValue[]) {
  const result = await target.unsafe(numberedStatement(sql), bindable(params) as never[], {
    prepare: true,
  });
  // postgres.js reads BIGINT as a string unless the client was made with a parser for it:
  // the columns say which are BIGINT, so their values read as numbers whatever the client.
  const bigints = (result.columns ?? []).filter((column) => column.type === INT8);
  for (const row of result as unknown as Record<string, unknown>[]) {
    for (const { name } of bigints) {
      const value = row[name];
      if (typeof value === "string") row[name] = parseInt8(value);
    }
  }
  return result;
}

function session(target: Target, depth: number): SqlDatabase {
  return {
    dialect: "postgres",
    async run(sql, params = []) {
      return { changes: (await query(target, sql, params)).count ?? 0 };
    },
    async get<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      return (await query(target, sql, params))[0] as Row | undefined;
    },
    async all<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      return [...(await query(target, sql, params))] as Row[];
    },
    async execScript(sql) {
      // Without parameters postgres.js sends the simple query protocol: several statements,
      // one implicit transaction (or inside the open one).
      await target.unsafe(sql);
    },
    async transaction<T>(work: (transaction: SqlDatabase) => Promise<T>): Promise<T> {
      // begin holds one connection from BEGIN to COMMIT; savepoint nests inside it.
      const run = (inner: TransactionSql) => work(session(inner, depth + 1));
      return (
        depth === 0 ? (target as Sql).begin(run) : (target as TransactionSql).savepoint(run)
      ) as Promise<T>;
    },
  };
}

/**
 * Adapts a postgres.js client (`postgres(url)`, which runs on Node, Bun, Deno and Workers) to
 * the `SqlDatabase` shape: `?` placeholders become `$n`, BIGINT reads as a number while exact,
 * statements are prepared, each runs on any free connection of the client, and `transaction`
 * holds one connection from BEGIN to COMMIT. `close()` ends the client.
 */
export function wrapPostgresJs(sql: Sql): SqlDatabase & { close(): Promise<void> } {
  return { ...session(sql, 0), close: () => sql.end() };
}
