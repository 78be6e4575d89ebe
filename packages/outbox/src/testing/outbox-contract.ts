import type { Clock } from "@tessera/core";
import { describe, expect, it } from "vitest";
import type { Outbox, OutboxItem } from "../outbox.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const LEASE_MS = 30_000;

/** An outbox under test, as the maker of {@link describeOutboxContract} gives it. */
export interface OutboxUnderTest<Writer> {
  /** A fresh, empty outbox reading the clock it was given. */
  readonly outbox: Outbox<Writer>;
  /** A writer that writes at once (the database itself). */
  readonly writer: Writer;
  /** Runs `work` in a transaction of the writer: kept when it resolves, gone when it throws. */
  transaction<T>(work: (writer: Writer) => Promise<T>): Promise<T>;
}

/**
 * The behaviour every {@link Outbox} owes its runners: one item per key, items that roll back
 * with their transaction, claims that lease each due item once (also when racing), leases
 * taken over once they run out, marks fenced by the claim, retries, failures, listing and
 * pruning.
 *
 * Call it at the top of a vitest test file; each case gets its own outbox from the maker, made
 * with the case's clock.
 *
 * @example
 * ```ts
 * import type { Clock } from "@tessera/core";
 * import { MemoryOutbox } from "@tessera/outbox";
 * import { describeOutboxContract } from "@tessera/outbox/testing";
 *
 * describeOutboxContract("memory", async (clock: Clock) => {
 *   const outbox = new MemoryOutbox({ clock });
 *   return { outbox, writer: outbox, transaction: (work) => outbox.transaction(work) };
 * });
 * ```
 */
export function describeOutboxContract<Writer>(
  name: string,
  makeOutbox: (clock: Clock) => Promise<OutboxUnderTest<Writer>>,
) {
  /** A new outbox and the clock it reads, set to T0. */
  async function setUp() {
    const time = { now: T0 };
    const made = await makeOutbox(() => time.now);
    return { ...made, time };
  }

  const claimAs = (outbox: Outbox<unknown>, owner: string, limit = 10, leaseMs = LEASE_MS) =>
    outbox.claim("mail", { limit, leaseMs, owner });

  describe(`Outbox contract: ${name}`, () => {
    it("enqueues an item, and leases it to one claim with its first attempt", async () => {
      const { outbox, writer } = await setUp();
      const payload = { to: "ada@example.com", lines: ["a", 1, null], nul: "x\u0000y" };
      const enqueued = await outbox.enqueue(writer, "mail", payload);
      expect(enqueued.created).toBe(true);
      expect(enqueued.key).toMatch(/^.{1,200}$/);
      const [item, ...others] = await claimAs(outbox, "worker-a");
      expect(others).toEqual([]);
      expect(item).toEqual({
        id: expect.any(Number),
        queue: "mail",
        key: enqueued.key,
        payload,
        status: "pending",
        attempts: 1,
        runAt: T0,
        leaseUntil: T0 + LEASE_MS,
        leaseOwner: "worker-a",
        fairnessKey: null,
        lastError: null,
        createdAt: T0,
        updatedAt: T0,
        finishedAt: null,
      } satisfies OutboxItem);
      expect(await claimAs(outbox, "worker-b")).toEqual([]);
    });

    it("keeps one item per key in a queue, and makes a new key for each item without one", async () => {
      const { outbox, writer } = await setUp();
      expect(await outbox.enqueue(writer, "mail", { n: 1 }, { key: "reset-7" })).toEqual({
        key: "reset-7",
        created: true,
      });
      expect(await outbox.enqueue(writer, "mail", { n: 2 }, { key: "reset-7" })).toEqual({
        key: "reset-7",
        created: false,
      });
      expect((await outbox.enqueue(writer, "webhook", { n: 3 }, { key: "reset-7" })).created).toBe(
        true,
      );
      const first = await outbox.enqueue(writer, "mail", { n: 4 });
      const second = await outbox.enqueue(writer, "mail", { n: 4 });
      expect(first.key).not.toBe(second.key);
      const claimed = await claimAs(outbox, "worker-a");
      expect(claimed.map((item) => item.payload)).toEqual([{ n: 1 }, { n: 4 }, { n: 4 }]);
      expect((await outbox.find("webhook", "reset-7"))?.payload).toEqual({ n: 3 });
    });

    it("writes an item with the caller's transaction: nothing when it rolls back", async () => {
      const { outbox, transaction } = await setUp();
      await expect(
        transaction(async (tx) => {
          await outbox.enqueue(tx, "mail", { n: 1 }, { key: "rolled-back" });
          throw new Error("the caller's write failed");
        }),
      ).rejects.toThrow("the caller's write failed");
      expect(await outbox.find("mail", "rolled-back")).toBeUndefined();
      expect(await claimAs(outbox, "worker-a")).toEqual([]);
      await transaction(async (tx) => {
        await outbox.enqueue(tx, "mail", { n: 2 }, { key: "committed" });
      });
      expect((await claimAs(outbox, "worker-a")).map((item) => item.key)).toEqual(["committed"]);
    });

    it("claims items of its queue whose time has come, earliest first, up to the limit", async () => {
      const { outbox, writer, time } = await setUp();
      await outbox.enqueue(writer, "mail", "late", { key: "late", runAt: T0 + 1000 });
      await outbox.enqueue(writer, "mail", "now", { key: "now" });
      await outbox.enqueue(writer, "mail", "soon", { key: "soon", runAt: T0 + 500 });
      await outbox.enqueue(writer, "webhook", "other queue", { key: "other" });
      expect((await claimAs(outbox, "a")).map((item) => item.key)).toEqual(["now"]);
      time.now = T0 + 1000;
      expect((await claimAs(outbox, "a", 1)).map((item) => item.key)).toEqual(["soon"]);
      expect((await claimAs(outbox, "a", 5)).map((item) => item.key)).toEqual(["late"]);
      expect(await claimAs(outbox, "a", 5)).toEqual([]);
    });

    it("keeps an item's fairness key, and leaves the keys a claim excludes for a later one", async () => {
      const { outbox, writer } = await setUp();
      await outbox.enqueue(writer, "mail", 1, { key: "slow-1", fairnessKey: "slow@example.com" });
      await outbox.enqueue(writer, "mail", 2, { key: "slow-2", fairnessKey: "slow@example.com" });
      await outbox.enqueue(writer, "mail", 3, { key: "keyless" });
      await outbox.enqueue(writer, "mail", 4, { key: "other", fairnessKey: "it's, (other)" });
      const excluding = (keys: string[]) =>
        outbox.claim("mail", {
          limit: 10,
          leaseMs: LEASE_MS,
          owner: "a",
          excludeFairnessKeys: keys,
        });
      const first = await excluding(["slow@example.com", "it's, (other)"]);
      expect(first.map((item) => [item.key, item.fairnessKey])).toEqual([["keyless", null]]);
      const second = await excluding(["slow@example.com"]);
      expect(second.map((item) => [item.key, item.fairnessKey])).toEqual([
        ["other", "it's, (other)"],
      ]);
      expect((await excluding([])).map((item) => [item.key, item.fairnessKey])).toEqual([
        ["slow-1", "slow@example.com"],
        ["slow-2", "slow@example.com"],
      ]);
      expect((await outbox.find("mail", "slow-2"))?.fairnessKey).toBe("slow@example.com");
      await expect(
        outbox.enqueue(writer, "mail", 5, { fairnessKey: "x".repeat(201) }),
      ).rejects.toThrow(RangeError);
      await expect(excluding([7 as never])).rejects.toThrow(RangeError);
    });

    it("leaves a live lease alone, takes an expired one over, and refuses the old holder's marks", async () => {
      const { outbox, writer, time } = await setUp();
      const { key } = await outbox.enqueue(writer, "mail", { n: 1 });
      const [first] = await claimAs(outbox, "crashed", 10, 1000);
      time.now = T0 + 999;
      expect(await claimAs(outbox, "successor")).toEqual([]);
      time.now = T0 + 1000;
      const [second] = await claimAs(outbox, "successor");
      expect(second).toMatchObject({ key, attempts: 2, leaseOwner: "successor" });
      expect(await outbox.complete(first!)).toBe(false);
      expect(await outbox.retry(first!, "late", T0 + 5000)).toBe(false);
      expect(await outbox.fail(first!, "late")).toBe(false);
      expect(await outbox.find("mail", key)).toMatchObject({
        status: "pending",
        attempts: 2,
        leaseOwner: "successor",
        lastError: null,
      });
      time.now = T0 + 1500;
      expect(await outbox.complete(second!)).toBe(true);
      expect(await outbox.find("mail", key)).toMatchObject({
        status: "done",
        finishedAt: T0 + 1500,
        leaseUntil: null,
      });
      expect(await outbox.complete(second!)).toBe(false);
      time.now = T0 + 100_000;
      expect(await claimAs(outbox, "anyone")).toEqual([]);
    });

    it("retries an item at the time given with its error, and fails it for good", async () => {
      const { outbox, writer, time } = await setUp();
      const { key } = await outbox.enqueue(writer, "mail", { n: 1 });
      const [first] = await claimAs(outbox, "a");
      expect(await outbox.retry(first!, "503 from the provider", T0 + 60_000)).toBe(true);
      expect(await outbox.find("mail", key)).toMatchObject({
        status: "pending",
        runAt: T0 + 60_000,
        leaseUntil: null,
        lastError: "503 from the provider",
        attempts: 1,
      });
      time.now = T0 + 59_999;
      expect(await claimAs(outbox, "a")).toEqual([]);
      time.now = T0 + 60_000;
      const [second] = await claimAs(outbox, "a");
      expect(second?.attempts).toBe(2);
      expect(await outbox.fail(second!, "550 no such mailbox")).toBe(true);
      expect(await outbox.find("mail", key)).toMatchObject({
        status: "failed",
        lastError: "550 no such mailbox",
        finishedAt: T0 + 60_000,
        leaseUntil: null,
      });
      time.now = T0 + 10_000_000;
      expect(await claimAs(outbox, "a")).toEqual([]);
    });

    it("marks no item that was never claimed", async () => {
      const { outbox, writer } = await setUp();
      const { key } = await outbox.enqueue(writer, "mail", { n: 1 });
      const unclaimed = (await outbox.find("mail", key))!;
      expect(await outbox.complete(unclaimed)).toBe(false);
      expect(await outbox.fail(unclaimed, "x")).toBe(false);
      expect((await outbox.find("mail", key))?.status).toBe("pending");
    });

    it("keeps an error's first 2,000 characters, with any NUL replaced", async () => {
      const { outbox, writer } = await setUp();
      const { key } = await outbox.enqueue(writer, "mail", {});
      const [item] = await claimAs(outbox, "a");
      await outbox.fail(item!, `a\u0000b${"x".repeat(3000)}`);
      const lastError = (await outbox.find("mail", key))?.lastError;
      expect(lastError).toBe(`a\uFFFDb${"x".repeat(1997)}`);
    });

    it("prunes only done items finished before the time, in batches", async () => {
      const { outbox, writer, time } = await setUp();
      const keys: string[] = [];
      for (let n = 0; n < 8; n++) keys.push((await outbox.enqueue(writer, "mail", n)).key);
      const claimed = await claimAs(outbox, "a");
      for (const item of claimed.slice(0, 5)) await outbox.complete(item);
      await outbox.fail(claimed[5]!, "gone");
      time.now = T0 + 10_000;
      await outbox.complete(claimed[6]!);
      // claimed[7] stays pending, leased.
      expect(await outbox.prune({ olderThan: T0 + 10_000, batchSize: 2 })).toBe(5);
      const left = await Promise.all(keys.map((key) => outbox.find("mail", key)));
      expect(left.map((item) => item?.status)).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        "failed",
        "done",
        "pending",
      ]);
      expect(await outbox.prune({ olderThan: T0 + 10_000 })).toBe(0);
    });

    it("lists the newest items of a queue first, whatever their status, up to the limit", async () => {
      const { outbox, writer, time } = await setUp();
      for (const key of ["first", "second", "third", "fourth"]) {
        await outbox.enqueue(writer, "mail", { key }, { key });
      }
      await outbox.enqueue(writer, "webhook", {}, { key: "other queue" });
      const [first] = await claimAs(outbox, "a", 1);
      time.now = T0 + 1000;
      await outbox.fail(first!, "550 no such mailbox");
      const [second] = await claimAs(outbox, "a", 1);
      await outbox.complete(second!);
      const listed = await outbox.list("mail", { limit: 10 });
      expect(listed.map((item) => [item.key, item.status])).toEqual([
        ["fourth", "pending"],
        ["third", "pending"],
        ["second", "done"],
        ["first", "failed"],
      ]);
      expect(listed[3]).toMatchObject({
        payload: { key: "first" },
        lastError: "550 no such mailbox",
      });
      expect((await outbox.list("mail", { limit: 2 })).map((item) => item.key)).toEqual([
        "fourth",
        "third",
      ]);
      expect(await outbox.list("nothing here", { limit: 10 })).toEqual([]);
      await expect(outbox.list("mail", { limit: 0 })).rejects.toThrow(RangeError);
      await expect(outbox.list("mail", { limit: 1.5 })).rejects.toThrow(RangeError);
    });

    it("leases each item once to claims racing for them", async () => {
      const { outbox, writer } = await setUp();
      for (let n = 0; n < 20; n++) await outbox.enqueue(writer, "mail", n, { key: `item-${n}` });
      const claims = await Promise.all(
        Array.from({ length: 10 }, (_, index) => claimAs(outbox, `racer-${index}`, 3)),
      );
      const keys = claims.flat().map((item) => item.key);
      expect(keys).toHaveLength(20);
      expect(new Set(keys).size).toBe(20);
    });

    it("refuses a queue, key, payload, time or claim it cannot store", async () => {
      const { outbox, writer } = await setUp();
      await expect(outbox.enqueue(writer, "", {})).rejects.toThrow(RangeError);
      await expect(outbox.enqueue(writer, "mail", {}, { key: "a\u0000b" })).rejects.toThrow(
        "the outbox key has a NUL character in string",
      );
      await expect(outbox.enqueue(writer, "mail", {}, { key: "k".repeat(201) })).rejects.toThrow(
        RangeError,
      );
      await expect(outbox.enqueue(writer, "mail", undefined)).rejects.toThrow(
        "the outbox payload is not JSON",
      );
      await expect(outbox.enqueue(writer, "mail", {}, { runAt: Number.NaN })).rejects.toThrow(
        RangeError,
      );
      await expect(claimAs(outbox, "a", 0)).rejects.toThrow(RangeError);
      await expect(claimAs(outbox, "a", 1, 0)).rejects.toThrow(RangeError);
      expect(await claimAs(outbox, "a")).toEqual([]);
    });

    it("tells its listeners of each enqueue, until they unsubscribe", async () => {
      const { outbox, writer } = await setUp();
      const heard: string[] = [];
      const unsubscribe = outbox.onEnqueue((queue) => heard.push(queue));
      await outbox.enqueue(writer, "mail", {});
      await outbox.enqueue(writer, "webhook", {});
      unsubscribe();
      await outbox.enqueue(writer, "mail", {});
      expect(heard).toEqual(["mail", "webhook"]);
    });
  });
}
