// A connection the server ends (a restart, pg_terminate_backend, a failover) must cost the
// statement or transaction on it, never the process, and must never be handed out again.
import type pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { freshPostgresDatabase, postgresUrl } from "../../../test/support/postgres.js";
import { openPostgres, type PgDatabase } from "../src/pg.js";

/**
 * Has the server end the connection of backend process `backend`, as a restart does to all of
 * them, through a pool of its own (the tested pool might pick the very connection to end).
 */
async function terminate(backend: number): Promise<void> {
  const administrator = openPostgres(postgresUrl(), { max: 1 });
  onTestFinished(() => administrator.close());
  const ended = await administrator.get<{ ended: boolean }>(
    "SELECT pg_terminate_backend(?::int) AS ended",
    [backend],
  );
  expect(ended).toEqual({ ended: true });
}

/** Resolves when the next client checked out of `pool` has seen its connection close. */
function nextCheckedOutClientEnds(pool: pg.Pool): Promise<void> {
  return new Promise((resolve) =>
    pool.once("acquire", (client: pg.PoolClient) => client.once("end", () => resolve())),
  );
}

async function backendPid(database: Pick<PgDatabase, "get">): Promise<number> {
  return (await database.get<{ pid: number }>("SELECT pg_backend_pid() AS pid"))!.pid;
}

describe("pg: connections the server ends", () => {
  it("fails the transaction whose connection ends between its statements, and keeps serving on a new connection", async () => {
    const database = await freshPostgresDatabase();
    const clientEnded = nextCheckedOutClientEnds(database.pool);
    let victim = 0;
    const outcome = database.transaction(async (transaction) => {
      victim = await backendPid(transaction);
      // Ended while the transaction's client waits, with no statement of its own under way.
      await terminate(victim);
      await clientEnded;
      return transaction.get("SELECT 1 AS one");
    });
    await expect(outcome).rejects.toThrow(/not queryable|terminat/i);
    const after = await database.transaction((transaction) => backendPid(transaction));
    expect(after).not.toBe(victim);
    expect(await database.get("SELECT 2 AS two")).toEqual({ two: 2 });
  });

  it("fails the transaction whose connection ends during its statement, and keeps serving", async () => {
    const database = await freshPostgresDatabase();
    let victim = 0;
    const outcome = database.transaction(async (transaction) => {
      victim = await backendPid(transaction);
      const sleeping = transaction.get("SELECT pg_sleep(30)");
      // It fails while the test still waits below, before `outcome` holds it: without a
      // handler of its own, that moment would be reported as an unhandled rejection.
      sleeping.catch(() => {});
      // The sleep is under way once the server says so; then the server ends its connection.
      await expect
        .poll(() =>
          database.get<{ state: string }>(
            "SELECT state FROM pg_stat_activity WHERE pid = ? AND query LIKE '%pg_sleep%'",
            [victim],
          ),
        )
        .toEqual({ state: "active" });
      await terminate(victim);
      return sleeping;
    });
    await expect(outcome).rejects.toThrow(/terminat/i);
    const after = await database.transaction((transaction) => backendPid(transaction));
    expect(after).not.toBe(victim);
  });

  it("drops an idle connection the server ended, and serves the next statement on a new one", async () => {
    const database = await freshPostgresDatabase();
    const victim = await backendPid(database);
    // The idle connection is ended; the pool hears of it and drops it.
    const removed = new Promise((resolve) => database.pool.once("remove", resolve));
    await terminate(victim);
    await removed;
    const after = await backendPid(database);
    expect(after).not.toBe(victim);
  });
});
