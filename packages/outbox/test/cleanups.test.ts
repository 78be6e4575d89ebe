import { MemoryOutbox, type Outbox, outboxCleanups } from "@tessera/outbox";
import { SqlOutbox } from "@tessera/outbox/sql";
import { describe, expect, it } from "vitest";
import { sqliteFile } from "./support/databases.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const DAY = 24 * 60 * 60 * 1000;

/** Three items of `outbox`: done at T0, failed at T0, done a day later. */
async function finishedItems<Writer>(
  outbox: Outbox<Writer>,
  writer: Writer,
  time: { now: number },
) {
  for (const key of ["old-done", "old-failed", "new-done"]) {
    await outbox.enqueue(writer, "mail", {}, { key });
  }
  const [oldDone, oldFailed, newDone] = await outbox.claim("mail", {
    limit: 3,
    leaseMs: 1000,
    owner: "a",
  });
  await outbox.complete(oldDone!);
  await outbox.fail(oldFailed!, "550 no such mailbox");
  time.now = T0 + DAY;
  await outbox.complete(newDone!);
}

describe("outboxCleanups", () => {
  for (const engine of ["memory", "SQLite"] as const) {
    it(`deletes done items past the retention and keeps failed ones (${engine})`, async () => {
      const time = { now: T0 };
      const clock = () => time.now;
      let outbox: MemoryOutbox | SqlOutbox;
      if (engine === "memory") {
        const memory = new MemoryOutbox({ clock });
        await finishedItems(memory, memory, time);
        outbox = memory;
      } else {
        const { database } = await sqliteFile();
        const sql = new SqlOutbox(database, { clock });
        await finishedItems(sql, database, time);
        outbox = sql;
      }
      const [task, ...others] = outboxCleanups(outbox, { retentionMs: 7 * DAY });
      expect(others).toEqual([]);
      expect(task?.name).toBe("old-outbox-items");
      expect(await task!.run(T0 + 7 * DAY)).toEqual({ removed: 0 });
      expect(await task!.run(T0 + 7 * DAY + 1)).toEqual({ removed: 1 });
      expect(await outbox.find("mail", "old-done")).toBeUndefined();
      expect(await outbox.find("mail", "old-failed")).toMatchObject({
        status: "failed",
        lastError: "550 no such mailbox",
      });
      expect((await outbox.find("mail", "new-done"))?.status).toBe("done");
      expect(await task!.run(T0 + 100 * DAY)).toEqual({ removed: 1 });
      expect((await outbox.find("mail", "old-failed"))?.status).toBe("failed");
    });
  }

  it("refuses a retention that is not a positive number", () => {
    expect(() => outboxCleanups(new MemoryOutbox(), { retentionMs: 0 })).toThrow(RangeError);
  });
});
