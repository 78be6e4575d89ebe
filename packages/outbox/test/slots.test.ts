import { MemoryOutbox, type RetrySchedule, runOutbox } from "@tessera/outbox";
import { describe, expect, it } from "vitest";
import { deferred, turns } from "./support/deferred.js";

const SCHEDULE: RetrySchedule = { delaysMs: [1000] };

describe("runOutbox: slots, fair shares and the attempt deadline", () => {
  it("gives a free slot the next due item while another delivery still runs", async () => {
    const outbox = new MemoryOutbox();
    for (const key of ["stuck", "a", "b", "c"]) await outbox.enqueue(outbox, "mail", {}, { key });
    const release = deferred();
    const lastDone = deferred();
    const delivered: string[] = [];
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      concurrency: 2,
      deliver: async (item) => {
        if (item.key === "stuck") await release.promise;
        delivered.push(item.key);
        if (item.key === "c") lastDone.resolve();
      },
    });
    const draining = runner.drain();
    // A batch of two would wait for "stuck" before taking "b": here the other slot goes on.
    await lastDone.promise;
    expect(delivered).toEqual(["a", "b", "c"]);
    expect((await outbox.find("mail", "stuck"))?.status).toBe("pending");
    release.resolve();
    expect(await draining).toEqual({ delivered: 4, retried: 0, failed: 0, superseded: 0 });
  });

  it("runs at most keyConcurrency items of one fairness key, so another key's item goes past them", async () => {
    const outbox = new MemoryOutbox();
    for (let n = 1; n <= 4; n++) {
      await outbox.enqueue(outbox, "mail", {}, { key: `slow-${n}`, fairnessKey: "slow.example" });
    }
    await outbox.enqueue(outbox, "mail", {}, { key: "fast", fairnessKey: "fast.example" });
    const release = deferred();
    const fastDone = deferred();
    const started: string[] = [];
    let slowRunning = 0;
    let mostSlow = 0;
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      concurrency: 4,
      keyConcurrency: 2,
      deliver: async (item) => {
        started.push(item.key);
        if (item.key === "fast") return fastDone.resolve();
        mostSlow = Math.max(mostSlow, ++slowRunning);
        await release.promise;
        slowRunning--;
      },
    });
    const draining = runner.drain();
    await fastDone.promise;
    await turns();
    // The slow key holds its two slots; the third of its items waits, the other key's does not.
    expect(started).toEqual(["slow-1", "slow-2", "fast"]);
    expect((await outbox.find("mail", "fast"))?.status).toBe("done");
    expect((await outbox.find("mail", "slow-3"))?.attempts).toBe(0);
    release.resolve();
    expect((await draining).delivered).toBe(5);
    expect(mostSlow).toBe(2);
  });

  it("ends an attempt at its deadline: the signal aborts, the item is retried, the slot goes on", async () => {
    const outbox = new MemoryOutbox();
    await outbox.enqueue(outbox, "mail", {}, { key: "hangs" });
    await outbox.enqueue(outbox, "mail", {}, { key: "next" });
    const signals: AbortSignal[] = [];
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      concurrency: 1,
      attemptTimeoutMs: 50,
      leaseMs: 60_000,
      // Never settles, whatever its signal says: the runner must not wait for it.
      deliver: (item, signal) => {
        signals.push(signal);
        return item.key === "hangs" ? new Promise<void>(() => undefined) : Promise.resolve();
      },
    });
    expect(await runner.drain()).toEqual({ delivered: 1, retried: 1, failed: 0, superseded: 0 });
    expect(await outbox.find("mail", "hangs")).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: "no result within 50 ms",
    });
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
    expect(signals[0]!.reason).toMatchObject({ message: "no result within 50 ms" });
  });

  it("refuses an attempt deadline that the lease would not cover", () => {
    const outbox = new MemoryOutbox();
    const options = { outbox, queue: "mail", schedule: SCHEDULE, deliver: async () => {} };
    expect(() => runOutbox({ ...options, leaseMs: 1000, attemptTimeoutMs: 1000 })).toThrow(
      "runOutbox: `attemptTimeoutMs` is not shorter than `leaseMs`",
    );
    expect(() => runOutbox({ ...options, keyConcurrency: 0 })).toThrow(
      "runOutbox: `keyConcurrency` is not a positive integer",
    );
  });
});
