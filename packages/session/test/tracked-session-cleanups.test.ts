import { describe, expect, it } from "vitest";
import { trackedSessionCleanups } from "../src/index.js";
import { MemoryTrackedSessionStore } from "../src/testing.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const HOUR = 3_600_000;

describe("trackedSessionCleanups", () => {
  it("is one task that deletes the sessions of every user expired at its run's time", async () => {
    const store = new MemoryTrackedSessionStore();
    const signIn = (userId: number, digest: string, expiresAt: number) =>
      store.create({
        userId,
        digest,
        ipAddress: null,
        browser: "curl",
        userAgent: null,
        expiresAt,
        createdAt: T0,
      });
    await signIn(1, "a", T0 + HOUR);
    await signIn(2, "b", T0 + HOUR);
    const lasting = await signIn(1, "c", T0 + 2 * HOUR);
    const tasks = trackedSessionCleanups(store);
    expect(tasks.map((task) => task.name)).toEqual(["expired-tracked-sessions"]);
    expect(await tasks[0]!.run(T0 + HOUR - 1000)).toEqual({ removed: 0 });
    expect(await tasks[0]!.run(T0 + HOUR)).toEqual({ removed: 2 });
    expect(await store.listForUser(1, T0)).toEqual([lasting]);
    expect(await store.listForUser(2, T0)).toEqual([]);
  });
});
