import type { RunResult, SqlDatabase, SqlValue } from "@tessera/sql";

export { applyMigrations, type Migration } from "@tessera/sql";

/** A prepared statement of a D1 binding, as far as the driver uses it. */
export interface D1Statement {
  bind(...values: unknown[]): D1Statement;
  run(): Promise<{ readonly meta: { readonly changes: number } }>;
  /** The first row, or null when there is none. */
  first(): Promise<unknown>;
  all(): Promise<{ readonly results: unknown[] }>;
}

/**
 * The part of a Cloudflare D1 binding (`env.DB`) the driver uses. Described here rather than
 * imported, so the package needs no Workers types.
 */
export interface D1Connection {
  prepare(sql: string): D1Statement;
  /** Runs the statements in order as one transaction. */
  batch(statements: D1Statement[]): Promise<unknown[]>;
}

/** A {@link SqlDatabase} on a D1 binding. */
export interface D1Database extends SqlDatabase {
  /** The binding, for what the driver shape does not cover. */
  readonly connection: D1Connection;
}

/**
 * Adapts a D1 binding. Single statements run as they come. D1 has no interactive
 * transactions (BEGIN and SAVEPOINT are refused), so `transaction(work)` runs `work`'s reads
 * at once and keeps its writes, then sends them as one `batch` when `work` resolves: they
 * commit together or not at all. Inside it, a write's `changes` is not known yet, and a read
 * after a write would not see the write; both throw instead of answering wrong. A nested
 * transaction that throws drops its own writes, like a savepoint. D1's `changes` counts the
 * rows an ON DELETE CASCADE removed as well, and BLOBs read back as arrays of bytes.
 */
export function d1Database(connection: D1Connection): D1Database {
  const statement = (sql: string, params: readonly SqlValue[]) =>
    params.length === 0
      ? connection.prepare(sql)
      : connection.prepare(sql).bind(...params.map(d1Value));

  const immediate: SqlDatabase = {
    dialect: "sqlite",
    async run(sql, params = []) {
      const result = await statement(sql, params).run();
      return { changes: result.meta.changes };
    },
    async get<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      return ((await statement(sql, params).first()) ?? undefined) as Row | undefined;
    },
    async all<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      return (await statement(sql, params).all()).results as Row[];
    },
    async execScript(sql) {
      // D1 runs every statement of one prepared text; a batch of one makes them atomic.
      await connection.batch([connection.prepare(sql)]);
    },
    async transaction<T>(work: (transaction: SqlDatabase) => Promise<T>): Promise<T> {
      const writes: D1Statement[] = [];
      const result = await work(batchedSession(writes));
      if (writes.length > 0) await connection.batch(writes);
      return result;
    },
  };

  /** The statements of a transaction: reads now, writes kept in `writes` for the batch. */
  const batchedSession = (writes: D1Statement[]): SqlDatabase => {
    const read = async <Result>(query: () => Promise<Result>) => {
      if (writes.length > 0) {
        throw new Error(
          "D1 runs a transaction's writes as one batch at its end: a read after a write would not see it",
        );
      }
      return query();
    };
    return {
      dialect: "sqlite",
      async run(sql, params = []) {
        writes.push(statement(sql, params));
        return UNKNOWN_CHANGES;
      },
      get: (sql, params) => read(() => immediate.get(sql, params)),
      all: (sql, params) => read(() => immediate.all(sql, params)),
      async execScript(sql) {
        writes.push(connection.prepare(sql));
      },
      async transaction(work) {
        const mark = writes.length;
        try {
          return await work(batchedSession(writes));
        } catch (error) {
          writes.length = mark;
          throw error;
        }
      },
    };
  };

  return { ...immediate, connection };
}

/** What `run` answers inside a D1 transaction: the count exists only once the batch ran. */
const UNKNOWN_CHANGES: RunResult = {
  get changes(): number {
    throw new Error(
      "D1 runs a transaction's writes as one batch at its end: their changes are not known inside it",
    );
  },
};

/** D1 binds no bigint: one that fits a double's integers binds as a number. */
function d1Value(value: SqlValue): unknown {
  if (typeof value !== "bigint") return value;
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError("D1 cannot bind an integer beyond ±(2^53 − 1)");
  }
  return Number(value);
}
