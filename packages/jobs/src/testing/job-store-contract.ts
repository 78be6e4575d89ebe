import { describe, expect, it } from "vitest";
import { defineJob } from "../job-definition.js";
import type { JobStore } from "../job-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const MINUTE = 60_000;

/** The job the contract stores: table `render_jobs`, inputs `prompt:text width:integer?`. */
export const contractJob = defineJob("render", ["prompt:text", "width:integer?"]);

/** A fresh store of {@link contractJob}, and a way to make the users its jobs belong to. */
export interface JobStoreUnderTest {
  readonly store: JobStore;
  newUser(): Promise<number>;
}

/** The behaviour every `JobStore` owes the runner, the sweep and the job routes. *
 * Call it at the top of a vitest test file; each case gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { JobDefinition, JobStore } from "@tessera/jobs";
 * import { contractJob, describeJobStoreContract } from "@tessera/jobs/testing";
 *
 * // Yours: a fresh, empty store of the contract's job, and a user row for its jobs.
 * declare function openMyJobStore(job: JobDefinition): Promise<JobStore>;
 * declare function insertMyUser(): Promise<number>;
 *
 * describeJobStoreContract("MyJobStore", async () => ({
 *   store: await openMyJobStore(contractJob),
 *   newUser: insertMyUser,
 * }));
 * ```
 */
export function describeJobStoreContract(
  name: string,
  makeStore: () => Promise<JobStoreUnderTest>,
) {
  async function setUp() {
    const { store, newUser } = await makeStore();
    return { store, ada: await newUser(), bob: await newUser() };
  }
  const input = (prompt: string) => ({ prompt, width: null });

  describe(`JobStore contract: ${name}`, () => {
    it("creates a queued job with its first attempt counted, reads it back owner-scoped", async () => {
      const { store, ada, bob } = await setUp();
      const job = await store.create({ userId: ada, input: input("a cat"), now: T0 });
      expect(job).toMatchObject({
        userId: ada,
        input: { prompt: "a cat", width: null },
        status: "queued",
        progress: 0,
        attempts: 1,
        lastAttemptAt: T0,
        createdAt: T0,
        updatedAt: T0,
      });
      expect(await store.find(job.id)).toEqual(job);
      expect(await store.findOwned(ada, job.id)).toEqual(job);
      expect(await store.findOwned(bob, job.id)).toBeUndefined();
    });

    it("lists the owner's jobs newest first, paged", async () => {
      const { store, ada, bob } = await setUp();
      for (const prompt of ["one", "two", "three"]) {
        await store.create({ userId: ada, input: input(prompt), now: T0 });
      }
      await store.create({ userId: bob, input: input("bob's"), now: T0 });
      const prompts = async (limit: number, offset: number) =>
        (await store.listOwned(ada, { limit, offset })).map((job) => job.input.prompt);
      expect(await prompts(2, 0)).toEqual(["three", "two"]);
      expect(await prompts(2, 2)).toEqual(["one"]);
      const [, second] = await store.listOwned(ada, { limit: 2, offset: 0 });
      const after = await store.listOwned(ada, { limit: 2, offset: 0, after: second!.id });
      expect(after.map((job) => job.input.prompt)).toEqual(["one"]);
      expect(await store.listOwned(bob, { limit: 2, offset: 0, after: second!.id })).toEqual([]);
    });

    it("updates by compare-and-set: of two writers from one state, one wins", async () => {
      const { store, ada } = await setUp();
      const job = await store.create({ userId: ada, input: input("x"), now: T0 });
      const running = {
        status: "running" as const,
        progress: 10,
        externalId: "e1",
        result: null,
        error: null,
      };
      const [first, second] = await Promise.all([
        store.update(job, running, T0 + 1000),
        store.update(job, { ...running, progress: 20 }, T0 + 1000),
      ]);
      expect([first, second].filter((written) => written !== undefined)).toHaveLength(1);
      expect((await store.find(job.id))?.status).toBe("running");
    });

    it("gives each due job to one of six racing sweeps, counting one attempt", async () => {
      const { store, ada } = await setUp();
      const jobs = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          store.create({ userId: ada, input: input(`job ${index}`), now: T0 }),
        ),
      );
      const claim = {
        now: T0 + 3 * MINUTE,
        lastAttemptBefore: T0 + MINUTE,
        maxAttempts: 3,
        limit: 5,
      };
      const sweeps = await Promise.all(Array.from({ length: 6 }, () => store.claimRetries(claim)));
      const claimed = sweeps.flat().map((job) => job.id);
      expect(new Set(claimed).size).toBe(claimed.length);
      for (const job of jobs) {
        const stored = (await store.find(job.id))!;
        expect(stored.attempts).toBe(claimed.includes(job.id) ? 2 : 1);
      }
      expect(claimed.length).toBeGreaterThan(0);
    });

    it("claims due retries once, counting the attempt, and lists exhausted and stale jobs", async () => {
      const { store, ada } = await setUp();
      const due = await store.create({ userId: ada, input: input("due"), now: T0 });
      await store.create({ userId: ada, input: input("recent"), now: T0 + 2 * MINUTE });
      const claim = {
        now: T0 + 3 * MINUTE,
        lastAttemptBefore: T0 + MINUTE,
        maxAttempts: 3,
        limit: 10,
      };
      const [first, second] = await Promise.all([
        store.claimRetries(claim),
        store.claimRetries(claim),
      ]);
      const claimed = [...first, ...second];
      expect(claimed.map((job) => job.id)).toEqual([due.id]);
      expect(claimed[0]).toMatchObject({ attempts: 2, lastAttemptAt: T0 + 3 * MINUTE });
      const exhausted = await store.listExhausted({
        maxAttempts: 2,
        lastAttemptBefore: T0 + 4 * MINUTE,
        limit: 10,
      });
      expect(exhausted.map((job) => job.id)).toEqual([due.id]);
      const submitted = await store.update(
        (await store.find(due.id))!,
        { status: "submitted", progress: 0, externalId: null, result: null, error: null },
        T0 + 3 * MINUTE,
      );
      expect(submitted?.status).toBe("submitted");
      const stale = await store.listStale({ updatedBefore: T0 + 10 * MINUTE, limit: 10 });
      expect(stale.map((job) => job.id)).toEqual([due.id]);
      expect(await store.listStale({ updatedBefore: T0 + MINUTE, limit: 10 })).toEqual([]);
    });
  });
}
