import { describe, expect, it } from "vitest";
import type { NewTrackedSession, TrackedSessionStore } from "../tracked-session-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A fresh tracked-session store, and a way to make the users its sessions belong to. */
export interface TrackedSessionStoreUnderTest {
  readonly store: TrackedSessionStore;
  newUser(): Promise<number>;
}

/** A sign-in of `userId` at `createdAt` that lasts `lifetime`, with a digest of its own. */
function signIn(userId: number, createdAt = T0, lifetime = DAY): NewTrackedSession {
  return {
    userId,
    digest: crypto.randomUUID().replaceAll("-", "").repeat(2),
    ipAddress: "203.0.113.7",
    browser: "Firefox 128 on Linux",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    expiresAt: createdAt + lifetime,
    createdAt,
  };
}

/**
 * The behaviour every `TrackedSessionStore` owes the device list and the session check: a row
 * is found only by its owner and digest, one of many racing last-seen writes wins, and every
 * delete stays within its user.
 *
 * Call it at the top of a vitest test file; each case gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { TrackedSessionStore } from "@tessera/session";
 * import { describeTrackedSessionStoreContract } from "@tessera/session/testing";
 *
 * // Yours: a fresh, empty store, and a user row for its sessions to belong to.
 * declare function openMyTrackedSessionStore(): Promise<TrackedSessionStore>;
 * declare function insertMyUser(): Promise<number>;
 *
 * describeTrackedSessionStoreContract("MyTrackedSessionStore", async () => ({
 *   store: await openMyTrackedSessionStore(),
 *   newUser: insertMyUser,
 * }));
 * ```
 */
export function describeTrackedSessionStoreContract(
  name: string,
  makeStore: () => Promise<TrackedSessionStoreUnderTest>,
) {
  describe(`TrackedSessionStore contract: ${name}`, () => {
    it("stores a sign-in (whole seconds) and finds it by its owner and digest only", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      const started = { ...signIn(ada, T0 + 999, DAY), factors: ["password", "totp"] };
      const row = await store.create(started);
      expect(row).toEqual({
        id: row.id,
        userId: ada,
        ipAddress: started.ipAddress,
        browser: started.browser,
        userAgent: started.userAgent,
        lastSeenAt: T0,
        expiresAt: T0 + DAY,
        createdAt: T0,
        factors: ["password", "totp"],
      });
      expect(await store.findByDigest(ada, started.digest)).toEqual(row);
      expect(await store.findByDigest(bob, started.digest)).toBeUndefined();
      expect(await store.findByDigest(ada, signIn(ada).digest)).toBeUndefined();
      const anonymous = await store.create({ ...signIn(bob), ipAddress: null, userAgent: null });
      expect(anonymous).toMatchObject({
        userId: bob,
        ipAddress: null,
        userAgent: null,
        factors: [],
      });
      await expect(store.create({ ...signIn(bob), digest: started.digest })).rejects.toThrow();
    });

    it("lists a user's live sessions, the most recently seen first", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      const first = await store.create(signIn(ada, T0));
      const second = await store.create(signIn(ada, T0 + 1000));
      const shortLived = await store.create(signIn(ada, T0 + 2000, HOUR));
      await store.create(signIn(bob, T0));
      expect(await store.listForUser(ada, T0 + 2000)).toEqual([shortLived, second, first]);
      expect(await store.touchLastSeen(first.id, T0 + 3000, T0 + 3000)).toBe(true);
      expect((await store.listForUser(ada, T0 + HOUR + 2000)).map((row) => row.id)).toEqual([
        first.id,
        second.id,
      ]);
      expect(await store.listForUser(ada, T0 + DAY + 1000)).toEqual([]);
    });

    it("writes the last-seen time only when stale, once of many racing writes", async () => {
      const { store, newUser } = await makeStore();
      const row = await store.create(signIn(await newUser()));
      expect(await store.touchLastSeen(row.id, T0 + HOUR - 1000, T0 - 1000)).toBe(false);
      const racing = await Promise.all(
        Array.from({ length: 10 }, () => store.touchLastSeen(row.id, T0 + HOUR, T0)),
      );
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect((await store.listForUser(row.userId, T0))[0]?.lastSeenAt).toBe(T0 + HOUR);
      expect(await store.touchLastSeen(row.id + 1000, T0 + HOUR, T0 + HOUR)).toBe(false);
    });

    it("deletes a session only for its owner, and the others of a user but one", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      const current = await store.create(signIn(ada));
      const others = [await store.create(signIn(ada)), await store.create(signIn(ada))];
      const bobs = await store.create(signIn(bob));
      expect(await store.deleteForUser(ada, bobs.id)).toBe(false);
      expect(await store.deleteForUser(ada, others[0]!.id)).toBe(true);
      expect(await store.deleteForUser(ada, others[0]!.id)).toBe(false);
      expect(await store.deleteOthersForUser(ada, current.id)).toBe(1);
      expect(await store.listForUser(ada, T0)).toEqual([current]);
      expect(await store.listForUser(bob, T0)).toEqual([bobs]);
      expect(await store.deleteOthersForUser(ada, undefined)).toBe(1);
      expect(await store.listForUser(ada, T0)).toEqual([]);
      expect(await store.listForUser(bob, T0)).toEqual([bobs]);
    });

    it("deletes the sessions of every user expired at a time, and counts them", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      await store.create(signIn(ada, T0, HOUR));
      await store.create(signIn(bob, T0, HOUR));
      const lasting = await store.create(signIn(ada, T0, DAY));
      expect(await store.deleteExpired(T0 + HOUR - 1000)).toBe(0);
      expect(await store.deleteExpired(T0 + HOUR)).toBe(2);
      expect(await store.deleteExpired(T0 + HOUR)).toBe(0);
      expect(await store.listForUser(ada, T0)).toEqual([lasting]);
      expect(await store.listForUser(bob, T0)).toEqual([]);
    });
  });
}
