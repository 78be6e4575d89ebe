import { formatTimestamp, parseTimestamp } from "@tessera/core";
import {
  columnDefinitions,
  POSTGRES,
  quoteIdentifier as q,
  SQLITE,
  type SqlDialect,
} from "@tessera/fields";
import type { ListPage } from "@tessera/http";
import type { Migration, SqlDatabase, SqlDialectName, SqlValue } from "@tessera/sql";
import type { JobDefinition } from "../job-definition.js";
import { inputFromColumns, inputToColumns } from "../job-input.js";
import type { JobStatus } from "../job-status.js";
import type { JobRecord, JobStore, NewJob, RetryClaim } from "../job-store.js";
import type { JobState } from "../state-machine.js";

/** Options of {@link jobTableMigration}. */
export interface JobTableMigrationOptions {
  /** The migration id (default `0005_tessera_<job>_jobs`). */
  readonly id?: string | undefined;
}

/**
 * Creates `<job>_jobs` (docs/webhooks-and-jobs.md) from the job's definition: the inputs' columns as
 * `@tessera/fields` defines them (`columnDefinitions`, with their CHECKs: booleans 0 or 1, an
 * enum's values, valid JSON), status restricted to the five, progress to 0..100, result to
 * valid JSON, and the owner's `user_id` cascading from `users`. On SQLite the table is `STRICT` (the
 * fields' SQLite types are TEXT, INTEGER and REAL, all allowed there), so the database itself
 * refuses a value of the wrong type (PostgreSQL checks types anyway). There is no `token` column: callback tokens are derived,
 * not stored (see `jobCallbackToken` in `@tessera/jobs`).
 */
export function jobTableMigration(
  definition: JobDefinition,
  options: JobTableMigrationOptions = {},
): Migration {
  return {
    id: options.id ?? `0005_tessera_${definition.table}`,
    sql: { sqlite: jobTableSql(definition, SQLITE), postgres: jobTableSql(definition, POSTGRES) },
  };
}

function jobTableSql(definition: JobDefinition, dialect: SqlDialect): string {
  const table = q(definition.table);
  const inputs = definition.inputs
    .flatMap((field) => columnDefinitions(field, dialect))
    .map((column) => `  ${column},`);
  const { integer } = dialect;
  return `CREATE TABLE ${table} (
  id ${dialect.primaryKey},
  user_id ${integer} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
${inputs.join("\n")}
  status TEXT NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'submitted', 'running', 'done', 'failed')),
  external_id TEXT,
  progress ${integer} NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  result TEXT CHECK (${dialect.jsonCheck("result")}),
  error TEXT,
  attempts ${integer} NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_attempt_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
)${dialect === SQLITE ? " STRICT" : ""};
CREATE INDEX ${q(`index_${definition.table}_on_user_id`)} ON ${table} (user_id, id);
CREATE INDEX ${q(`index_${definition.table}_on_status`)} ON ${table} (status, updated_at)`;
}

interface JobRow {
  id: number;
  user_id: number;
  status: JobStatus;
  external_id: string | null;
  progress: number;
  result: string | null;
  error: string | null;
  attempts: number;
  last_attempt_at: string;
  created_at: string;
  updated_at: string;
  [input: string]: SqlValue;
}

/** The SQL of one job table; built once per store, so every statement text is fixed. */
function statements(definition: JobDefinition, dialect: SqlDialectName) {
  const table = q(definition.table);
  const inputs = definition.inputs.flatMap((field) => field.columns).map(q);
  const columns = [
    "id",
    "user_id",
    ...inputs,
    "status",
    "external_id",
    "progress",
    "result",
    "error",
    "attempts",
    "last_attempt_at",
    "created_at",
    "updated_at",
  ].join(", ");
  const select = `SELECT ${columns} FROM ${table}`;
  const inserted = [
    "user_id",
    ...inputs,
    "attempts",
    "last_attempt_at",
    "created_at",
    "updated_at",
  ];
  return {
    insert: `INSERT INTO ${table} (${inserted.join(", ")}) VALUES (${inserted.map(() => "?").join(", ")}) RETURNING ${columns}`,
    find: `${select} WHERE id = ?`,
    findOwned: `${select} WHERE id = ? AND user_id = ?`,
    listOwned: `${select} WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`,
    // Keyset paging on the (user_id, id) index: the same cost at any depth.
    listOwnedAfter: `${select} WHERE user_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
    // Compare-and-set: the write happens only while the job is as the caller read it.
    update: `UPDATE ${table} SET status = ?, progress = ?, external_id = ?, result = ?, error = ?, updated_at = ?
WHERE id = ? AND status = ? AND progress = ? AND updated_at = ? RETURNING ${columns}`,
    // Selection and claim in one statement, so racing sweeps never claim the same attempt:
    // SQLite runs it under one write lock; on PostgreSQL the selection locks its rows, skipping
    // those another sweep holds, and re-reads a row that sweep committed meanwhile (whose new
    // last_attempt_at no longer matches).
    claimRetries: `UPDATE ${table} SET attempts = attempts + 1, last_attempt_at = ?, updated_at = ?
WHERE id IN (SELECT id FROM ${table} WHERE status = 'queued' AND attempts < ? AND last_attempt_at < ?
  ORDER BY last_attempt_at, id LIMIT ?${dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : ""})
RETURNING ${columns}`,
    listExhausted: `${select} WHERE status = 'queued' AND attempts >= ? AND last_attempt_at < ? ORDER BY id LIMIT ?`,
    listStale: `${select} WHERE status IN ('submitted', 'running') AND updated_at < ? ORDER BY updated_at, id LIMIT ?`,
  };
}

/**
 * The {@link JobStore} of `@tessera/jobs` on a {@link SqlDatabase} that has run
 * {@link jobTableMigration} for the same definition. Each method is one statement; `update` is
 * a conditional `UPDATE ... RETURNING` and `claimRetries` selects and claims in one `UPDATE`,
 * so racing callbacks and sweeps on any number of connections are safe. Times have a
 * one-second resolution.
 */
export class SqlJobStore implements JobStore {
  readonly #sql: ReturnType<typeof statements>;
  /** The input columns, in the order the insert statement lists them. */
  readonly #inputColumns: readonly string[];

  constructor(
    private readonly database: SqlDatabase,
    private readonly definition: JobDefinition,
  ) {
    this.#sql = statements(definition, database.dialect);
    this.#inputColumns = definition.inputs.flatMap((field) => field.columns);
  }

  async create(job: NewJob): Promise<JobRecord> {
    const now = formatTimestamp(job.now);
    const values = inputToColumns(this.definition, job.input);
    const inputs = this.#inputColumns.map((column) => values[column] ?? null);
    const row = await this.database.get<JobRow>(this.#sql.insert, [
      job.userId,
      ...inputs,
      1,
      now,
      now,
      now,
    ]);
    return this.#record(row!);
  }

  async find(id: number): Promise<JobRecord | undefined> {
    return this.#maybe(await this.database.get<JobRow>(this.#sql.find, [id]));
  }

  async findOwned(userId: number, id: number): Promise<JobRecord | undefined> {
    return this.#maybe(await this.database.get<JobRow>(this.#sql.findOwned, [id, userId]));
  }

  async listOwned(userId: number, page: ListPage): Promise<JobRecord[]> {
    const rows = await this.database.all<JobRow>(
      ...(page.after === undefined
        ? ([this.#sql.listOwned, [userId, page.limit, page.offset]] as const)
        : ([this.#sql.listOwnedAfter, [userId, page.after, page.limit]] as const)),
    );
    return rows.map((row) => this.#record(row));
  }

  async update(expected: JobRecord, next: JobState, now: number): Promise<JobRecord | undefined> {
    return this.#maybe(
      await this.database.get<JobRow>(this.#sql.update, [
        next.status,
        next.progress,
        next.externalId,
        next.result,
        next.error,
        formatTimestamp(now),
        expected.id,
        expected.status,
        expected.progress,
        formatTimestamp(expected.updatedAt),
      ]),
    );
  }

  async claimRetries(claim: RetryClaim): Promise<JobRecord[]> {
    const now = formatTimestamp(claim.now);
    const rows = await this.database.all<JobRow>(this.#sql.claimRetries, [
      now,
      now,
      claim.maxAttempts,
      formatTimestamp(claim.lastAttemptBefore),
      claim.limit,
    ]);
    return rows.map((row) => this.#record(row));
  }

  async listExhausted(query: {
    readonly maxAttempts: number;
    readonly lastAttemptBefore: number;
    readonly limit: number;
  }): Promise<JobRecord[]> {
    const rows = await this.database.all<JobRow>(this.#sql.listExhausted, [
      query.maxAttempts,
      formatTimestamp(query.lastAttemptBefore),
      query.limit,
    ]);
    return rows.map((row) => this.#record(row));
  }

  async listStale(query: {
    readonly updatedBefore: number;
    readonly limit: number;
  }): Promise<JobRecord[]> {
    const rows = await this.database.all<JobRow>(this.#sql.listStale, [
      formatTimestamp(query.updatedBefore),
      query.limit,
    ]);
    return rows.map((row) => this.#record(row));
  }

  #maybe(row: JobRow | undefined): JobRecord | undefined {
    return row && this.#record(row);
  }

  #record(row: JobRow): JobRecord {
    return {
      id: row.id,
      userId: row.user_id,
      input: inputFromColumns(this.definition, row),
      status: row.status,
      progress: row.progress,
      externalId: row.external_id,
      result: row.result,
      error: row.error,
      attempts: row.attempts,
      lastAttemptAt: parseTimestamp(row.last_attempt_at),
      createdAt: parseTimestamp(row.created_at),
      updatedAt: parseTimestamp(row.updated_at),
    };
  }
}
