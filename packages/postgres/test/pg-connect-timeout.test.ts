// A statement must not wait forever for a connection: not on a server that takes the TCP
// connection and never answers, not on a pool whose every connection is taken.
import { createServer, type Socket } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { postgresUrl } from "../../../test/support/postgres.js";
import { openPostgres } from "../src/pg.js";

/** A TCP server on 127.0.0.1 that accepts every connection and never writes a byte. */
async function silentServer() {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const address = server.address();
  return { port: typeof address === "object" && address ? address.port : 0, sockets };
}

describe("openPostgres: the connect timeout", () => {
  it("fails a statement whose server accepts the connection but never answers", async () => {
    const silent = await silentServer();
    const database = openPostgres(`postgres://tessera@127.0.0.1:${silent.port}/tessera`, {
      connectionTimeoutMillis: 300,
    });
    onTestFinished(() => database.close());

    await expect(database.get("SELECT 1 AS one")).rejects.toThrow(
      "Connection terminated due to connection timeout",
    );
    // It was the silence that failed it: the connection itself was made.
    expect(silent.sockets).toHaveLength(1);
  });

  it("fails a statement that waits for a connection while the pool's every one is taken", async () => {
    const database = openPostgres(postgresUrl(), { max: 1, connectionTimeoutMillis: 300 });
    onTestFinished(() => database.close());
    let release = () => {};
    const held = database.transaction(
      (transaction) =>
        new Promise<unknown>((resolve) => {
          release = () => resolve(transaction.get("SELECT 1 AS one"));
        }),
    );
    // The transaction has its connection once it runs its first statement.
    await expect.poll(() => database.pool.totalCount).toBe(1);
    await expect.poll(() => database.pool.idleCount).toBe(0);

    await expect(database.get("SELECT 2 AS two")).rejects.toThrow(
      "timeout exceeded when trying to connect",
    );
    release();
    expect(await held).toEqual({ one: 1 });
    expect(await database.get("SELECT 2 AS two")).toEqual({ two: 2 });
  });

  it("waits 10 seconds for a connection unless told otherwise", () => {
    const database = openPostgres("postgres://tessera@127.0.0.1:5432/tessera");
    onTestFinished(() => database.close());
    expect(database.pool.options.connectionTimeoutMillis).toBe(10_000);
  });
});
