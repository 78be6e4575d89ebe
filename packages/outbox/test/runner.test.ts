import {
  FinalDeliveryError,
  MemoryOutbox,
  type OutboxItem,
  type RetrySchedule,
  runOutbox,
} from "@tessera/outbox";
import { describe, expect, it } from "vitest";
import { deferred, turns } from "./support/deferred.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const SCHEDULE: RetrySchedule = { delaysMs: [1000, 5000] };

/** A memory outbox on a clock the test moves. */
function fakeTimeOutbox() {
  const time = { now: T0 };
  const clock = () => time.now;
  return { outbox: new MemoryOutbox({ clock }), clock, time };
}

describe("runOutbox: drain", () => {
  it("delivers every due item of its queue once, and reports it", async () => {
    const { outbox, clock } = fakeTimeOutbox();
    for (const n of [1, 2, 3]) await outbox.enqueue(outbox, "mail", { n }, { key: `k${n}` });
    await outbox.enqueue(outbox, "mail", { n: 4 }, { key: "later", runAt: T0 + 1 });
    await outbox.enqueue(outbox, "webhook", { n: 5 });
    const delivered: OutboxItem[] = [];
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      clock,
      batch: 2,
      deliver: async (item) => {
        delivered.push(item);
      },
    });
    expect(await runner.drain()).toEqual({ delivered: 3, retried: 0, failed: 0, superseded: 0 });
    expect(delivered.map((item) => [item.key, item.payload, item.attempts])).toEqual([
      ["k1", { n: 1 }, 1],
      ["k2", { n: 2 }, 1],
      ["k3", { n: 3 }, 1],
    ]);
    expect((await outbox.find("mail", "k2"))?.status).toBe("done");
    expect(await runner.drain()).toEqual({ delivered: 0, retried: 0, failed: 0, superseded: 0 });
  });

  it("retries a throwing delivery on the schedule, with the same key, then fails it with the last error", async () => {
    const { outbox, clock, time } = fakeTimeOutbox();
    await outbox.enqueue(outbox, "mail", {}, { key: "reset-1" });
    const attempts: [string, number][] = [];
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      clock,
      deliver: async (item) => {
        attempts.push([item.key, item.attempts]);
        throw new Error(`503 on attempt ${item.attempts}`);
      },
    });
    expect(await runner.drain()).toMatchObject({ retried: 1, failed: 0 });
    expect(await outbox.find("mail", "reset-1")).toMatchObject({
      status: "pending",
      runAt: T0 + 1000,
      lastError: "503 on attempt 1",
    });
    time.now = T0 + 999;
    expect(await runner.drain()).toMatchObject({ retried: 0, failed: 0 });
    time.now = T0 + 1000;
    expect(await runner.drain()).toMatchObject({ retried: 1 });
    expect((await outbox.find("mail", "reset-1"))?.runAt).toBe(T0 + 6000);
    time.now = T0 + 6000;
    expect(await runner.drain()).toMatchObject({ retried: 0, failed: 1 });
    expect(await outbox.find("mail", "reset-1")).toMatchObject({
      status: "failed",
      attempts: 3,
      lastError: "503 on attempt 3",
      finishedAt: T0 + 6000,
    });
    expect(attempts).toEqual([
      ["reset-1", 1],
      ["reset-1", 2],
      ["reset-1", 3],
    ]);
  });

  it("spreads a retry by the schedule's jitter", async () => {
    const { outbox, clock } = fakeTimeOutbox();
    const { key } = await outbox.enqueue(outbox, "mail", {});
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: { delaysMs: [10_000], jitter: 0.2 },
      clock,
      random: () => 0.5,
      deliver: async () => {
        throw new Error("down");
      },
    });
    await runner.drain();
    expect((await outbox.find("mail", key))?.runAt).toBe(T0 + 11_000);
  });

  it("fails an item at once on a final error, or any error marked final", async () => {
    const { outbox, clock } = fakeTimeOutbox();
    await outbox.enqueue(outbox, "mail", {}, { key: "bounce" });
    await outbox.enqueue(outbox, "mail", {}, { key: "marked" });
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      clock,
      deliver: async (item) => {
        if (item.key === "bounce") throw new FinalDeliveryError("422: the address is invalid");
        throw Object.assign(new Error("401: bad API key"), { final: true });
      },
    });
    expect(await runner.drain()).toEqual({ delivered: 0, retried: 0, failed: 2, superseded: 0 });
    expect(await outbox.find("mail", "bounce")).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: "422: the address is invalid",
    });
    expect((await outbox.find("mail", "marked"))?.lastError).toBe("401: bad API key");
  });

  it("waits as long as an error's retryAfterMs asks when that is later than the schedule", async () => {
    const { outbox, clock, time } = fakeTimeOutbox();
    await outbox.enqueue(outbox, "mail", {}, { key: "busy" });
    await outbox.enqueue(outbox, "mail", {}, { key: "soon" });
    const asked: Record<string, number> = { busy: 4000, soon: 200 };
    const attempts: [string, number][] = [];
    const logged: string[] = [];
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      clock,
      log: (line) => logged.push(line),
      deliver: async (item) => {
        attempts.push([item.key, item.attempts]);
        if (item.attempts === 1) {
          throw Object.assign(new Error("429 Too Many Requests"), {
            retryAfterMs: asked[item.key],
          });
        }
      },
    });
    expect(await runner.drain()).toEqual({ delivered: 0, retried: 2, failed: 0, superseded: 0 });
    // Later than the schedule's 1 s: the provider's time. Sooner: the schedule's.
    expect((await outbox.find("mail", "busy"))?.runAt).toBe(T0 + 4000);
    expect((await outbox.find("mail", "soon"))?.runAt).toBe(T0 + 1000);
    time.now = T0 + 3999;
    expect(await runner.drain()).toMatchObject({ delivered: 1 });
    time.now = T0 + 4000;
    expect(await runner.drain()).toMatchObject({ delivered: 1 });
    expect(attempts).toEqual([
      ["busy", 1],
      ["soon", 1],
      ["soon", 2],
      ["busy", 2],
    ]);
    expect(logged).toEqual([]);
  });

  it("cuts a wait asked beyond the schedule's longest step to that step, logs it, and counts the attempt as failed", async () => {
    const { outbox, clock, time } = fakeTimeOutbox();
    // What a provider's Retry-After of 99999999999 s, of Fri, 31 Dec 9999, beyond what a
    // number holds, in the past, or unreadable comes to as retryAfterMs.
    const asked: Record<string, unknown> = {
      seconds: 99_999_999_999_000,
      "year-9999": Date.UTC(9999, 11, 31, 23, 59, 59) - T0,
      endless: Number.POSITIVE_INFINITY,
      past: 0,
      garbage: Number.NaN,
      text: "Fri, 31 Dec 9999 23:59:59 GMT",
    };
    for (const key of Object.keys(asked)) await outbox.enqueue(outbox, "mail", {}, { key });
    const logged: string[] = [];
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      clock,
      log: (line) => logged.push(line),
      deliver: async (item) => {
        throw Object.assign(new Error(`503, attempt ${item.attempts}`), {
          retryAfterMs: asked[item.key],
        });
      },
    });
    expect(await runner.drain()).toMatchObject({ retried: 6, failed: 0 });
    const item = (key: string) => outbox.find("mail", key);
    for (const key of ["seconds", "year-9999", "endless"]) {
      expect(await item(key)).toMatchObject({
        status: "pending",
        attempts: 1,
        lastError: "503, attempt 1",
        runAt: T0 + 5000,
      });
    }
    for (const key of ["past", "garbage", "text"]) {
      expect((await item(key))?.runAt).toBe(T0 + 1000);
    }
    const ids = await Promise.all(
      ["seconds", "year-9999", "endless"].map(async (key) => (await item(key))?.id),
    );
    expect(logged).toEqual([
      `Outbox item ${ids[0]} of "mail" (attempt 1) was asked to wait 99999999999000 ms; waiting 5000 ms, the retry schedule's longest step`,
      `Outbox item ${ids[1]} of "mail" (attempt 1) was asked to wait ${asked["year-9999"]} ms; waiting 5000 ms, the retry schedule's longest step`,
      `Outbox item ${ids[2]} of "mail" (attempt 1) was asked to wait Infinity ms; waiting 5000 ms, the retry schedule's longest step`,
    ]);
    // The schedule still ends: asked for years every time, the item fails after its last step.
    time.now = T0 + 5000;
    await runner.drain();
    expect((await item("seconds"))?.runAt).toBe(T0 + 10_000);
    time.now = T0 + 10_000;
    await runner.drain();
    expect(await item("seconds")).toMatchObject({
      status: "failed",
      attempts: 3,
      lastError: "503, attempt 3",
    });
  });

  it("fails an item whose schedule is spent even when its error asks to wait", async () => {
    const { outbox, clock } = fakeTimeOutbox();
    const { key } = await outbox.enqueue(outbox, "mail", {});
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: { delaysMs: [] },
      clock,
      deliver: async () => {
        throw Object.assign(new Error("503"), { retryAfterMs: 1000 });
      },
    });
    expect(await runner.drain()).toMatchObject({ failed: 1 });
    expect((await outbox.find("mail", key))?.status).toBe("failed");
  });

  it("runs no more deliveries at once than its concurrency", async () => {
    const { outbox, clock } = fakeTimeOutbox();
    for (let n = 0; n < 10; n++) await outbox.enqueue(outbox, "mail", n);
    let running = 0;
    let most = 0;
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      clock,
      batch: 10,
      concurrency: 3,
      deliver: async () => {
        running++;
        most = Math.max(most, running);
        await turns(3);
        running--;
      },
    });
    expect((await runner.drain()).delivered).toBe(10);
    expect(most).toBe(3);
  });

  it("counts a delivery whose lease was taken over meanwhile as superseded, and changes nothing", async () => {
    const { outbox, clock, time } = fakeTimeOutbox();
    const { key } = await outbox.enqueue(outbox, "mail", {});
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      clock,
      leaseMs: 1000,
      deliver: async () => {
        time.now = T0 + 1000;
        await outbox.claim("mail", { limit: 1, leaseMs: 1000, owner: "other" });
      },
    });
    expect(await runner.drain()).toEqual({ delivered: 0, retried: 0, failed: 0, superseded: 1 });
    expect(await outbox.find("mail", key)).toMatchObject({
      status: "pending",
      leaseOwner: "other",
      attempts: 2,
    });
  });

  it("names a missing or wrong option", () => {
    const { outbox } = fakeTimeOutbox();
    const deliver = async () => {};
    expect(() => runOutbox({ outbox, queue: "mail", schedule: SCHEDULE } as never)).toThrow(
      "runOutbox: `deliver` is missing",
    );
    expect(() => runOutbox({ queue: "mail", schedule: SCHEDULE, deliver } as never)).toThrow(
      "runOutbox: `outbox` is missing",
    );
    expect(() => runOutbox({ outbox, queue: "mail", deliver } as never)).toThrow(
      "runOutbox: `schedule` is missing",
    );
    expect(() =>
      runOutbox({ outbox, queue: "mail", deliver, schedule: SCHEDULE, concurrency: 0 }),
    ).toThrow("runOutbox: `concurrency` is not a positive integer");
    expect(() =>
      runOutbox({ outbox, queue: "mail", deliver, schedule: { delaysMs: [-1] } }),
    ).toThrow(RangeError);
  });
});

describe("runOutbox: onFailed", () => {
  it("is told of each item given up on, a final error at once and a spent schedule at the end, never of a retry", async () => {
    const { outbox, clock, time } = fakeTimeOutbox();
    await outbox.enqueue(outbox, "mail", {}, { key: "bounce" });
    await outbox.enqueue(outbox, "mail", {}, { key: "down" });
    const told: [string, number, string][] = [];
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      clock,
      deliver: async (item) => {
        throw item.key === "bounce"
          ? new FinalDeliveryError("422: the address is invalid")
          : new Error(`503 on attempt ${item.attempts}`);
      },
      onFailed: (item, error) => told.push([item.key, item.attempts, error]),
    });
    await runner.drain();
    expect(told).toEqual([["bounce", 1, "422: the address is invalid"]]);
    time.now = T0 + 1000;
    await runner.drain();
    expect(told).toHaveLength(1);
    time.now = T0 + 6000;
    await runner.drain();
    expect(told).toEqual([
      ["bounce", 1, "422: the address is invalid"],
      ["down", 3, "503 on attempt 3"],
    ]);
    expect((await outbox.find("mail", "down"))?.status).toBe("failed");
  });
});

describe("runOutbox: start and stop", () => {
  it("delivers what was due at start, then wakes at once for an enqueue on the same outbox", async () => {
    const outbox = new MemoryOutbox();
    await outbox.enqueue(outbox, "mail", {}, { key: "before-start" });
    // Resolved when the runner finds nothing due: it is about to wait for the next poll.
    let idle = deferred();
    const claim = outbox.claim.bind(outbox);
    outbox.claim = async (queue, options) => {
      const items = await claim(queue, options);
      if (items.length === 0) idle.resolve();
      return items;
    };
    const seen: string[] = [];
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      // An hour: only the enqueue's wake-up can deliver the second item within the test.
      pollMs: 3_600_000,
      deliver: async (item) => {
        seen.push(item.key);
      },
    });
    runner.start();
    await idle.promise;
    expect(seen).toEqual(["before-start"]);
    idle = deferred();
    await outbox.enqueue(outbox, "mail", {}, { key: "after-start" });
    await idle.promise;
    await runner.stop();
    expect(seen).toEqual(["before-start", "after-start"]);
    expect((await outbox.find("mail", "after-start"))?.status).toBe("done");
  });

  it("does not sleep through an enqueue that arrives after its last claim of a drain", async () => {
    const outbox = new MemoryOutbox();
    const claim = outbox.claim.bind(outbox);
    let enqueuedLate = false;
    outbox.claim = async (queue, options) => {
      const items = await claim(queue, options);
      if (items.length === 0 && !enqueuedLate) {
        enqueuedLate = true;
        await outbox.enqueue(outbox, "mail", {}, { key: "late" });
      }
      return items;
    };
    const delivered = deferred<string>();
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      pollMs: 3_600_000,
      deliver: async (item) => delivered.resolve(item.key),
    });
    runner.start();
    expect(await delivered.promise).toBe("late");
    await runner.stop();
  });

  it("stop() waits for the deliveries under way, and claims nothing after", async () => {
    const outbox = new MemoryOutbox();
    const started = deferred();
    const release = deferred();
    let deliveries = 0;
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      pollMs: 3_600_000,
      deliver: async () => {
        deliveries++;
        started.resolve();
        await release.promise;
      },
    });
    runner.start();
    const { key } = await outbox.enqueue(outbox, "mail", {});
    await started.promise;
    let stopped = false;
    const stopping = runner.stop().then(() => {
      stopped = true;
    });
    await turns();
    expect(stopped).toBe(false);
    release.resolve();
    await stopping;
    expect((await outbox.find("mail", key))?.status).toBe("done");
    const after = await outbox.enqueue(outbox, "mail", {});
    await turns();
    expect(deliveries).toBe(1);
    expect((await outbox.find("mail", after.key))?.attempts).toBe(0);
  });

  it("reports the outbox's errors and goes on at the next poll", async () => {
    const outbox = new MemoryOutbox();
    await outbox.enqueue(outbox, "mail", {}, { key: "k" });
    const claim = outbox.claim.bind(outbox);
    let claims = 0;
    outbox.claim = async (queue, options) => {
      if (++claims === 1) throw new Error("database is locked");
      return claim(queue, options);
    };
    const errors: unknown[] = [];
    const delivered = deferred<string>();
    const runner = runOutbox({
      outbox,
      queue: "mail",
      schedule: SCHEDULE,
      pollMs: 5,
      onError: (error) => errors.push(error),
      deliver: async (item) => delivered.resolve(item.key),
    });
    runner.start();
    expect(await delivered.promise).toBe("k");
    await runner.stop();
    expect(errors).toEqual([new Error("database is locked")]);
  });
});
