import type { SqlDatabase } from "@tessera/sql";

/** An owner's enabled endpoint as a send needs it: its id and its event filter. */
export interface SubscribedEndpoint {
  readonly id: string;
  readonly eventTypes: readonly string[];
}

/**
 * Where the connection's view of `webhook_endpoints` stands: `changes` counts the connection's
 * own writes to it, `version` is SQLite's `data_version`, which moves whenever another
 * connection (another process) commits anything.
 */
export interface CacheState {
  readonly changes: number;
  readonly version: number;
}

// A temporary table and triggers belong to the connection that makes them, and fire for its
// own writes alone, whatever statement makes them (a store's or the app's own SQL): with
// `data_version`, which tells of every other connection's commits, nothing is missed. Updates
// of other columns (pacing, failing streaks, secrets) change no subscription and count not.
const SETUP = `CREATE TEMP TABLE IF NOT EXISTS tessera_webhook_endpoint_changes (changes INTEGER NOT NULL);
INSERT INTO tessera_webhook_endpoint_changes (changes)
  SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM tessera_webhook_endpoint_changes);
CREATE TEMP TRIGGER IF NOT EXISTS tessera_webhook_endpoint_inserted
  AFTER INSERT ON main.webhook_endpoints
  BEGIN UPDATE tessera_webhook_endpoint_changes SET changes = changes + 1; END;
CREATE TEMP TRIGGER IF NOT EXISTS tessera_webhook_endpoint_updated
  AFTER UPDATE OF owner_id, event_types, disabled_at ON main.webhook_endpoints
  BEGIN UPDATE tessera_webhook_endpoint_changes SET changes = changes + 1; END;
CREATE TEMP TRIGGER IF NOT EXISTS tessera_webhook_endpoint_deleted
  AFTER DELETE ON main.webhook_endpoints
  BEGIN UPDATE tessera_webhook_endpoint_changes SET changes = changes + 1; END`;

const STATE = `SELECT changes, (SELECT data_version FROM pragma_data_version) AS version
FROM temp.tessera_webhook_endpoint_changes`;

/** Owners kept at most; past it the cache starts again empty. */
const MAXIMUM_OWNERS = 10_000;

/**
 * How long a state read is trusted as a guess (10 ms): a busy server reads it at every turn of
 * its event loop anyway, and an idle one pays a read before its next write.
 */
const GUESS_MS = 10;

/**
 * The owners' enabled endpoints of one SQLite connection, each as it was in the state last
 * read: an answer is used only while that state is the one read, so a change made by any
 * statement of this connection or by any other connection drops them all once it is read.
 * Only for a `SqlDatabase` that is one connection (better-sqlite3, node:sqlite, bun): on D1
 * the statements may reach different connections.
 */
export class SubscriptionCache {
  #setup: Promise<void> | undefined;
  #ready = false;
  #state: CacheState | undefined;
  /** When the state was last read (`performance.now()`). */
  #readAt = Number.NEGATIVE_INFINITY;
  /** Endpoints were written in this process since the state was read: read it again first. */
  #touched = false;
  readonly #owners = new Map<number, readonly SubscribedEndpoint[]>();
  /** The state read each reader's writers wait for, due once the loop's ready work is done. */
  readonly #checks = new Map<SqlDatabase, Promise<CacheState>>();

  constructor(private readonly database: SqlDatabase) {}

  /**
   * Whether the connection's table and triggers are there. The first call starts making them
   * on the database itself, without waiting (a caller inside a transaction would wait for
   * itself): until they are made, and for good if they cannot be, there is no cache.
   */
  ready(): boolean {
    this.#setup ??= this.database.execScript(SETUP).then(
      () => {
        this.#ready = true;
      },
      () => {},
    );
    return this.#ready;
  }

  /**
   * The state last read, if it was read in the last 10 ms and no endpoint was written in this
   * process since: a guess, which a read after the write it decides proves or disproves. A
   * wrong one costs that write a transaction of its own for its event.
   */
  lastState(): CacheState | undefined {
    if (this.#touched || performance.now() - this.#readAt > GUESS_MS) return undefined;
    return this.#state;
  }

  /** The state now, read through `reader` (the transaction, if any); a new one empties the cache. */
  async state(reader: SqlDatabase): Promise<CacheState> {
    this.#touched = false;
    const readAt = performance.now();
    const row = await reader.get<{ changes: number; version: number }>(STATE);
    this.#readAt = Math.max(this.#readAt, readAt);
    const state = { changes: Number(row!.changes), version: Number(row!.version) };
    if (!this.#state || !sameState(this.#state, state)) {
      this.#owners.clear();
      this.#state = state;
    }
    return state;
  }

  /**
   * The state, read through `reader` after the caller's write: one read for every write that
   * asks before it is made. It is made once the writes the event loop has ready are done (a
   * server under load finishes several in one turn), and after every one of them, so it tells
   * whether anything changed before each one's commit.
   */
  stateAfter(reader: SqlDatabase): Promise<CacheState> {
    let check = this.#checks.get(reader);
    if (!check) {
      check = new Promise<void>((resolve) => later(resolve)).then(() => {
        this.#checks.delete(reader);
        return this.state(reader);
      });
      this.#checks.set(reader, check);
    }
    return check;
  }

  /** Endpoints were written in this process: the next use reads the state first. */
  touch(): void {
    this.#touched = true;
  }

  /** The owner's endpoints as known in `state`, if that is still the last state read. */
  get(ownerId: number, state: CacheState): readonly SubscribedEndpoint[] | undefined {
    return this.#state && sameState(this.#state, state) ? this.#owners.get(ownerId) : undefined;
  }

  /**
   * Keeps the owner's endpoints, read after `state` was: kept only while `state` is the last
   * one read (a newer one may already tell of a change the read did not see).
   */
  set(ownerId: number, endpoints: readonly SubscribedEndpoint[], state: CacheState): void {
    if (!this.#state || !sameState(this.#state, state)) return;
    if (this.#owners.size >= MAXIMUM_OWNERS) this.#owners.clear();
    this.#owners.set(ownerId, endpoints);
  }
}

// After the I/O callbacks of this turn of the event loop (setImmediate where there is one).
const later: (run: () => void) => void =
  typeof setImmediate === "function" ? (run) => setImmediate(run) : (run) => setTimeout(run, 0);

/** Whether two states are one: nothing changed between their reads. */
export function sameState(a: CacheState, b: CacheState): boolean {
  return a.changes === b.changes && a.version === b.version;
}

// One cache per database object: every store on it shares what it knows and what it writes.
const caches = new WeakMap<SqlDatabase, SubscriptionCache>();

/** The cache of `database`, made on first use. */
export function subscriptionCacheOf(database: SqlDatabase): SubscriptionCache {
  let cache = caches.get(database);
  if (!cache) {
    cache = new SubscriptionCache(database);
    caches.set(database, cache);
  }
  return cache;
}

/** Tells the cache of `database`, if it has one, that endpoints were just written through it. */
export function touchSubscriptionCache(database: SqlDatabase): void {
  caches.get(database)?.touch();
}
