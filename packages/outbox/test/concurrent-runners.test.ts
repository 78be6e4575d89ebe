import { runOutbox } from "@tessera/outbox";
import { SqlOutbox } from "@tessera/outbox/sql";
import type { SqlDatabase } from "@tessera/sql";
import { describe, expect, it } from "vitest";
import { postgresSchema, sqliteFile } from "./support/databases.js";

const ITEMS = 200;

/**
 * Enqueues ITEMS items, then drains them with one runner per connection at once, counting the
 * deliveries of each key: each must be delivered exactly once, and every row end done.
 */
async function drainWithRunners(connections: readonly SqlDatabase[]) {
  const [first] = connections;
  const enqueuer = new SqlOutbox(first!);
  await first!.transaction(async (tx) => {
    for (let n = 0; n < ITEMS; n++) await enqueuer.enqueue(tx, "mail", { n }, { key: `mail-${n}` });
  });
  const deliveries = new Map<string, number>();
  const reports = await Promise.all(
    connections.map((connection, index) =>
      runOutbox({
        outbox: new SqlOutbox(connection),
        queue: "mail",
        schedule: { delaysMs: [] },
        owner: `runner-${index}`,
        batch: 5,
        concurrency: 3,
        deliver: async (item) => {
          deliveries.set(item.key, (deliveries.get(item.key) ?? 0) + 1);
          // A delivery waits on the network: let the other runners claim meanwhile.
          await new Promise((resolve) => setImmediate(resolve));
        },
      }).drain(),
    ),
  );
  expect(deliveries.size).toBe(ITEMS);
  expect([...deliveries.values()].every((count) => count === 1)).toBe(true);
  expect(reports.reduce((sum, report) => sum + report.delivered, 0)).toBe(ITEMS);
  // Each runner took part: the claims interleaved rather than one runner taking everything.
  expect(reports.every((report) => report.delivered > 0)).toBe(true);
  const statuses = await first!.all<{ status: string; count: number }>(
    "SELECT status, COUNT(*) AS count FROM outbox_items GROUP BY status",
  );
  expect(statuses.map(({ status, count }) => [status, Number(count)])).toEqual([["done", ITEMS]]);
}

describe("runners draining one outbox at once", () => {
  it("deliver each item once: two connections to one SQLite file", async () => {
    const { database, open } = await sqliteFile();
    await drainWithRunners([database, open()]);
  });

  it("deliver each item once: three pools on one PostgreSQL database", async () => {
    const { open } = await postgresSchema();
    await drainWithRunners([open(), open(), open()]);
  });
});
