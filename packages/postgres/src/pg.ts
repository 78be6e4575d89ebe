import { inSavepoint, type SqlDatabase, type SqlValue } from "@tessera/sql";
import pg from "pg";
import { INT8, parseInt8 } from "./int8.js";
import { numberedStatement } from "./placeholders.js";

// Opening a database and migrating it go together: an app that installs only this driver
// (strict pnpm sees no transitive @tessera/sql) imports both from here.
export { applyMigrations, type Migration } from "@tessera/sql";

/** Anything that runs a query: a `pg.Pool`, or one client checked out of it. */
type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

/** A {@link SqlDatabase} on a `pg` pool, with `close()` to end the pool. */
export interface PgDatabase extends SqlDatabase {
  /** The pool, for what the driver shape does not cover. */
  readonly pool: pg.Pool;
  /** Ends the pool: call it once, at shutdown. */
  close(): Promise<void>;
}

/** Options for {@link openPostgres}. */
export interface OpenPostgresOptions {
  /** Connections the pool keeps at most (default 10, pg's default). */
  readonly max?: number | undefined;
  /**
   * How long a statement waits for a connection, in milliseconds (default 10 000), whether the
   * pool opens a new one or waits for one of its `max` to be free; then it fails with pg's
   * `Connection terminated due to connection timeout` or `timeout exceeded when trying to
   * connect`. pg's own default, 0, waits forever: a server that accepts the TCP connection but
   * never answers (stopped with SIGSTOP, behind a dead proxy) would hang every request.
   */
  readonly connectionTimeoutMillis?: number | undefined;
}

const DEFAULT_CONNECTION_TIMEOUT_MS = 10_000;

// int8 (BIGINT ids and counts) reads as a number where it is exact and as a bigint beyond
// 2^53; pg's default is a string. Set per query, so the application's own `pg` use keeps
// whatever parsers it chose.
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === INT8 && format !== "binary") return parseInt8;
    return pg.types.getTypeParser(oid, format ?? "text");
  }) as pg.CustomTypesConfig["getTypeParser"],
};

/**
 * Opens a pool on a `postgres://user:password@host:port/database` URL and wraps it: see
 * {@link wrapPgPool}. The pool connects lazily, on the first statement.
 *
 * @example
 * ```ts
 * import { accountMigrations } from "@tessera/accounts/sql";
 * import { applyMigrations, openPostgres } from "@tessera/postgres/pg";
 *
 * const database = openPostgres(process.env.DATABASE_URL!, { max: 10 });
 * await applyMigrations(database, accountMigrations); // once, however many processes start
 * await database.close(); // at shutdown
 * ```
 */
export function openPostgres(url: string, options: OpenPostgresOptions = {}): PgDatabase {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? DEFAULT_CONNECTION_TIMEOUT_MS,
  });
  // An idle client losing its connection (a server restart) is reported here; without a
  // listener it would crash the process. The pool drops that client and opens another.
  pool.on("error", () => {});
  return wrapPgPool(pool);
}

/**
 * Adapts a `pg.Pool` to the {@link SqlDatabase} shape: `?` placeholders become `$n`, BIGINT
 * reads as a number, each statement runs on any free connection, and `transaction` holds one
 * connection from BEGIN to COMMIT. `close()` ends the pool.
 */
export function wrapPgPool(pool: pg.Pool): PgDatabase {
  return {
    ...session(pool, 0),
    pool,
    close: () => pool.end(),
  };
}

async function query(
  target: Queryable,
  sql: string,
  params: readonly SqlValue[],
): Promise<pg.QueryResult> {
  return target.query({ text: numberedStatement(sql), values: [...params], types });
}

/** The statements on `target`: the pool (`depth` 0) or one transaction's client. */
function session(target: pg.Pool | pg.PoolClient, depth: number): SqlDatabase {
  return {
    dialect: "postgres",
    async run(sql, params = []) {
      return { changes: (await query(target, sql, params)).rowCount ?? 0 };
    },
    async get<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      return (await query(target, sql, params)).rows[0] as Row | undefined;
    },
    async all<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      return (await query(target, sql, params)).rows as Row[];
    },
    async execScript(sql) {
      // Without parameters pg sends the simple query protocol, which runs several statements
      // as one implicit transaction (or inside the open one).
      await target.query(sql);
    },
    async transaction<T>(work: (transaction: SqlDatabase) => Promise<T>): Promise<T> {
      if (depth > 0) {
        const client = target as pg.PoolClient;
        return inSavepoint(
          (sql) => client.query(sql),
          depth,
          () => work(session(client, depth + 1)),
        );
      }
      const client = await (target as pg.Pool).connect();
      // pg reports a lost connection (a server restart, a terminated backend) as an `error`
      // event of its client, besides failing the statements on it. The pool listens only while
      // the client is idle in it: without this listener, a transaction under way when the
      // server goes would end the process.
      let lost = false;
      const noteLost = () => {
        lost = true;
      };
      client.on("error", noteLost);
      let broken = false;
      try {
        await client.query("BEGIN");
        try {
          const result = await work(session(client, 1));
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {
            broken = true;
          });
          throw error;
        }
      } finally {
        client.off("error", noteLost);
        // A client whose ROLLBACK failed may be mid-transaction, and a lost one is of no use:
        // destroy it, never reuse it.
        client.release(broken || lost);
      }
    },
  };
}
