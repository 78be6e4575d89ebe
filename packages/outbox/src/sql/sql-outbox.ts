import { type Clock, systemClock } from "@tessera/core";
import {
  deleteInBatches,
  type Migration,
  portableDdl,
  type RunResult,
  type SqlDatabase,
} from "@tessera/sql";
import { EnqueueSignal } from "../enqueue-signal.js";
import type {
  ClaimOptions,
  EnqueueOptions,
  EnqueueResult,
  ListOptions,
  Outbox,
  OutboxItem,
  OutboxStatus,
  PruneOptions,
} from "../outbox.js";
import {
  checkClaimOptions,
  checkedName,
  checkedTime,
  checkListOptions,
  fairnessKeyOf,
  itemKey,
  payloadJson,
  storableError,
} from "../outbox-input.js";

/**
 * Creates `outbox_items`, the table of `@tessera/outbox` (its README describes it). Times are
 * epoch milliseconds (INTEGER; BIGINT on PostgreSQL), since leases are shorter than the
 * one-second text timestamps other tables keep. The partial index serves the claim (pending
 * items of a queue by run time); the second one, retention (done items by finish time).
 */
export const outboxItemsMigration: Migration = {
  id: "0008_tessera_outbox_items",
  sql: portableDdl(`CREATE TABLE outbox_items (
  id INTEGER PRIMARY KEY,
  queue TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  run_at INTEGER NOT NULL,
  lease_until INTEGER,
  lease_owner TEXT,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  finished_at INTEGER,
  UNIQUE (queue, idempotency_key)
);
CREATE INDEX outbox_items_due ON outbox_items (queue, run_at) WHERE status = 'pending';
CREATE INDEX outbox_items_done ON outbox_items (finished_at) WHERE status = 'done'`),
};

/**
 * Adds `fairness_key`: whose work an item is (a mail's recipient, a webhook's owner), so a
 * runner can give each key a fair share of its deliveries. Items already queued have none.
 */
export const outboxFairnessKeyMigration: Migration = {
  id: "0008_tessera_outbox_items_fairness_key",
  sql: "ALTER TABLE outbox_items ADD COLUMN fairness_key TEXT",
};

/** The tables of `@tessera/outbox`, in order: apply them with `applyMigrations`. */
export const outboxMigrations: readonly Migration[] = [
  outboxItemsMigration,
  outboxFairnessKeyMigration,
];

const COLUMNS = `id, queue, idempotency_key, payload, status, attempts, run_at, lease_until,
  lease_owner, fairness_key, last_error, created_at, updated_at, finished_at`;

const ENQUEUE = `INSERT INTO outbox_items
  (queue, idempotency_key, payload, status, attempts, run_at, fairness_key, created_at, updated_at)
VALUES (?, ?, ?, 'pending', 0, ?, ?, ?, ?)
ON CONFLICT (queue, idempotency_key) DO NOTHING`;

// Selection and lease in one statement, so racing claims never lease one item twice. SQLite
// (and D1) run it under the one write lock. On PostgreSQL the selection locks its rows and
// skips those another claim holds; a row that claim committed meanwhile is read again, and its
// new lease no longer matches. Keys whose share is used are left out with one placeholder
// each: a runner holds a few at most.
function claimSql(dialect: SqlDatabase["dialect"], excludedKeys: number): string {
  const fair =
    excludedKeys === 0
      ? ""
      : ` AND (fairness_key IS NULL OR fairness_key NOT IN (${Array(excludedKeys).fill("?").join(", ")}))`;
  return `UPDATE outbox_items
SET attempts = attempts + 1, lease_owner = ?, lease_until = ?, updated_at = ?
WHERE id IN (SELECT id FROM outbox_items
  WHERE queue = ? AND status = 'pending' AND run_at <= ? AND (lease_until IS NULL OR lease_until <= ?)${fair}
  ORDER BY run_at, id LIMIT ?${dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : ""})
RETURNING ${COLUMNS}`;
}

// The fence of every mark: the claim's owner and attempt. A taken-over claim matches no row.
const HELD = "id = ? AND status = 'pending' AND lease_owner = ? AND attempts = ?";

const COMPLETE = `UPDATE outbox_items
SET status = 'done', lease_until = NULL, updated_at = ?, finished_at = ?
WHERE ${HELD}`;

const RETRY = `UPDATE outbox_items
SET run_at = ?, lease_until = NULL, last_error = ?, updated_at = ?
WHERE ${HELD}`;

const FAIL = `UPDATE outbox_items
SET status = 'failed', lease_until = NULL, last_error = ?, updated_at = ?, finished_at = ?
WHERE ${HELD}`;

const FIND = `SELECT ${COLUMNS} FROM outbox_items WHERE queue = ? AND idempotency_key = ?`;

// Newest first by id: ids grow with each insert on both engines, where two enqueues in one
// millisecond share a created_at.
const LIST = `SELECT ${COLUMNS} FROM outbox_items WHERE queue = ? ORDER BY id DESC LIMIT ?`;

interface ItemRow {
  id: number;
  queue: string;
  idempotency_key: string;
  payload: string;
  status: OutboxStatus;
  attempts: number;
  run_at: number;
  lease_until: number | null;
  lease_owner: string | null;
  fairness_key: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** Options of {@link SqlOutbox}. */
export interface SqlOutboxOptions {
  /** The time source (default the real clock); tests pass their own. */
  readonly clock?: Clock | undefined;
}

/**
 * The {@link Outbox} of `@tessera/outbox` on a {@link SqlDatabase} that has run
 * {@link outboxMigrations}: SQLite (better-sqlite3, node:sqlite, bun, D1) and PostgreSQL (pg,
 * PGlite, postgres.js). `enqueue` writes through the database or transaction handle it is
 * given; every other step is one statement on the database the outbox was made with, so any
 * number of runners, in any number of processes, share the table safely.
 */
export class SqlOutbox implements Outbox<SqlDatabase> {
  readonly #signal = new EnqueueSignal();
  readonly #clock: Clock;

  constructor(
    private readonly database: SqlDatabase,
    options: SqlOutboxOptions = {},
  ) {
    this.#clock = options.clock ?? systemClock;
  }

  async enqueue(
    writer: SqlDatabase,
    queue: string,
    payload: unknown,
    options: EnqueueOptions = {},
  ): Promise<EnqueueResult> {
    checkedName("queue", queue);
    const key = itemKey(options.key);
    const json = payloadJson(payload);
    const fairnessKey = fairnessKeyOf(options.fairnessKey);
    const now = this.#clock();
    // A write, so `run`: D1 keeps a transaction's writes for its closing batch, but would send a
    // `get` at once, outside the transaction.
    const result = await writer.run(ENQUEUE, [
      queue,
      key,
      json,
      checkedTime(options.runAt ?? now),
      fairnessKey,
      now,
      now,
    ]);
    this.#signal.notify(queue);
    return { key, created: insertedOne(result) };
  }

  async claim(queue: string, options: ClaimOptions): Promise<OutboxItem[]> {
    checkClaimOptions(options);
    const now = this.#clock();
    const excluded = options.excludeFairnessKeys ?? [];
    const rows = await this.database.all<ItemRow>(
      claimSql(this.database.dialect, excluded.length),
      [options.owner, now + options.leaseMs, now, queue, now, now, ...excluded, options.limit],
    );
    // RETURNING promises no order.
    return rows.map(itemOf).sort((a, b) => a.runAt - b.runAt || a.id - b.id);
  }

  async complete(item: OutboxItem): Promise<boolean> {
    const now = this.#clock();
    return this.#mark(COMPLETE, [now, now], item);
  }

  async retry(item: OutboxItem, error: string, nextRunAt: number): Promise<boolean> {
    return this.#mark(RETRY, [checkedTime(nextRunAt), storableError(error), this.#clock()], item);
  }

  async fail(item: OutboxItem, error: string): Promise<boolean> {
    const now = this.#clock();
    return this.#mark(FAIL, [storableError(error), now, now], item);
  }

  async find(queue: string, key: string): Promise<OutboxItem | undefined> {
    const row = await this.database.get<ItemRow>(FIND, [queue, key]);
    return row && itemOf(row);
  }

  async list(queue: string, options: ListOptions): Promise<OutboxItem[]> {
    checkListOptions(options);
    const rows = await this.database.all<ItemRow>(LIST, [queue, options.limit]);
    return rows.map(itemOf);
  }

  async prune(options: PruneOptions): Promise<number> {
    return deleteInBatches(this.database, {
      table: "outbox_items",
      rowKey: ["id"],
      where: "status = 'done' AND finished_at < ?",
      params: [options.olderThan],
      ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
    });
  }

  onEnqueue(listener: (queue: string) => void): () => void {
    return this.#signal.subscribe(listener);
  }

  async #mark(sql: string, values: (string | number)[], item: OutboxItem): Promise<boolean> {
    const { changes } = await this.database.run(sql, [
      ...values,
      item.id,
      item.leaseOwner,
      item.attempts,
    ]);
    return changes === 1;
  }
}

/** Whether the insert wrote its row; undefined inside a D1 transaction, which cannot say yet. */
function insertedOne(result: RunResult): boolean | undefined {
  try {
    return result.changes === 1;
  } catch {
    // D1 sends a transaction's writes as one batch when it ends; until then `changes` throws.
    return undefined;
  }
}

function itemOf(row: ItemRow): OutboxItem {
  return {
    id: Number(row.id),
    queue: row.queue,
    key: row.idempotency_key,
    payload: JSON.parse(row.payload),
    status: row.status,
    attempts: Number(row.attempts),
    runAt: Number(row.run_at),
    leaseUntil: row.lease_until === null ? null : Number(row.lease_until),
    leaseOwner: row.lease_owner,
    fairnessKey: row.fairness_key,
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}
