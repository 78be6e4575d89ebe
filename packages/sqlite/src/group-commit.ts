/** Bounds of a group commit's batch (the `groupCommit` setting of the SQLite drivers). */
export interface GroupCommitOptions {
  /** Transactions one COMMIT takes at most (default 64). */
  readonly maxTransactions?: number | undefined;
  /**
   * Milliseconds after its BEGIN in which a batch still takes the next transaction waiting
   * (default 10): a transaction already started always runs to its end.
   */
  readonly maxBatchMs?: number | undefined;
}

/** The parts of the connection's driver a group commit runs on. */
export interface GroupCommitConnection {
  exec(sql: string): void;
  inTransaction(): boolean;
  /** Begins the batch's transaction (BEGIN IMMEDIATE, waiting out another process's lock). */
  begin(): Promise<void>;
  /** Whether statements outside a transaction wait now (a batch is open). */
  held(): boolean;
  /** Makes them wait until the function it returns is called. */
  hold(): () => void;
}

/** A promise with its settle functions (`Promise.withResolvers` is Node 22). */
interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((settle, refuse) => {
    resolve = settle;
    reject = refuse;
  });
  return { promise, resolve, reject };
}

/** One transaction of a batch, as its caller and the batch hand it to each other. */
interface Member {
  /** Resolves when the caller's work may run, inside the batch; rejects if BEGIN failed. */
  readonly turn: Deferred<void>;
  /** The caller's work is done; true when its savepoint could not be undone. */
  readonly done: Deferred<boolean>;
  /** Settles once the batch has committed, or rejects with why it did not. */
  readonly committed: Deferred<void>;
}

/** The savepoint each transaction of a batch runs in (nested ones are `tessera_1`…). */
const MEMBER_SAVEPOINT = "tessera_0";

/** Why every caller of a batch fails when SQLite ended its transaction inside one of them. */
const LOST_BATCH =
  "the group commit's transaction ended inside one of its transactions: nothing of it is known to be committed";

/** After the I/O callbacks of this turn of the event loop (setImmediate where there is one). */
const later: (run: () => void) => void =
  typeof setImmediate === "function" ? (run) => setImmediate(run) : (run) => setTimeout(run, 0);

/**
 * Transactions that share one BEGIN IMMEDIATE … COMMIT. A transaction asked for when no batch
 * is open opens one: statements outside transactions sent from then on wait for its COMMIT, as
 * they would for a transaction, and it begins once the event loop's ready callbacks have run
 * (`setImmediate`), so the transactions of one turn go in it together. Transactions asked for
 * while it is open join it, up to the bounds; the rest take the next batch, which begins after
 * the statements that waited have run.
 *
 * Each transaction runs in a savepoint of the batch, one after the other, in its caller's own
 * async context: one that throws rolls back to its savepoint and rejects its caller alone. It
 * sees the writes of the batch's earlier transactions, as it would running after them. Every
 * caller's promise settles after the COMMIT: none reports a write that is not committed. A
 * COMMIT that fails (a deferred constraint of any transaction) rejects every caller.
 *
 * Returns the depth-0 `transaction`: `work` runs the caller's work on the transaction's session.
 */
export function groupCommit(
  connection: GroupCommitConnection,
  options: GroupCommitOptions = {},
): <T>(work: () => Promise<T>) => Promise<T> {
  const maxTransactions = Math.max(1, options.maxTransactions ?? 64);
  const maxBatchMs = options.maxBatchMs ?? 10;
  const queue: Member[] = [];
  /** A batch is due to begin at the end of this turn. */
  let scheduled = false;

  /** Runs one batch on the open gate, then schedules the next if transactions are left. */
  const run = async (release: () => void) => {
    scheduled = false;
    const batch: Member[] = [];
    let failure: { error: unknown } | undefined;
    try {
      try {
        await connection.begin();
      } catch (error) {
        for (const member of queue.splice(0, maxTransactions)) member.turn.reject(error);
        return;
      }
      const started = Date.now();
      while (
        queue.length > 0 &&
        batch.length < maxTransactions &&
        (batch.length === 0 || Date.now() - started < maxBatchMs)
      ) {
        const member = queue.shift()!;
        batch.push(member);
        member.turn.resolve();
        const broken = await member.done.promise;
        if (broken || !connection.inTransaction()) {
          // SQLite ended the transaction under it (an I/O error, a COMMIT or ROLLBACK sent by
          // hand), or its writes could not be undone: what the batch holds is not known.
          failure = { error: new Error(LOST_BATCH) };
          break;
        }
      }
      if (!failure) connection.exec("COMMIT");
    } catch (error) {
      failure ??= { error };
    } finally {
      if (failure) rollBack();
      release();
      for (const member of batch) {
        if (failure) member.committed.reject(failure.error);
        else member.committed.resolve();
      }
      next();
    }
  };

  /** Rolls the batch back, if SQLite has not already. */
  const rollBack = () => {
    try {
      if (connection.inTransaction()) connection.exec("ROLLBACK");
    } catch {
      // The callers get the batch's first failure; the next BEGIN reports a connection still
      // in a transaction.
    }
  };

  /**
   * The transactions left after a batch get the next one at the end of this turn: the
   * statements that waited for the batch run first.
   */
  const next = () => {
    if (queue.length === 0 || scheduled) return;
    scheduled = true;
    later(() => void run(connection.hold()));
  };

  return async <T>(work: () => Promise<T>): Promise<T> => {
    const member: Member = { turn: deferred(), done: deferred(), committed: deferred() };
    queue.push(member);
    if (!connection.held() && !scheduled) {
      // Statements sent from now on wait for this batch, as for a transaction begun now.
      const release = connection.hold();
      scheduled = true;
      later(() => void run(release));
    }
    await member.turn.promise;
    let outcome: { value: T } | { error: unknown };
    let broken = false;
    try {
      connection.exec(`SAVEPOINT ${MEMBER_SAVEPOINT}`);
      try {
        outcome = { value: await work() };
        connection.exec(`RELEASE SAVEPOINT ${MEMBER_SAVEPOINT}`);
      } catch (error) {
        outcome = { error };
        try {
          connection.exec(`ROLLBACK TO SAVEPOINT ${MEMBER_SAVEPOINT}`);
          connection.exec(`RELEASE SAVEPOINT ${MEMBER_SAVEPOINT}`);
        } catch {
          broken = true;
        }
      }
    } catch (error) {
      // SAVEPOINT itself failed: nothing of this work ran.
      outcome = { error };
    } finally {
      member.done.resolve(broken);
    }
    const committed = await member.committed.promise.then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    if ("error" in outcome) throw outcome.error;
    if (committed) throw committed.error;
    return outcome.value;
  };
}
