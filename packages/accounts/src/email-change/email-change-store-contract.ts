import { describe, expect, it } from "vitest";
import type { EmailChangeStore } from "./email-change-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const DAY = 24 * 3_600_000;

/** A fresh email change store, and a way to make the users its changes belong to. */
export interface EmailChangeStoreUnderTest {
  readonly store: EmailChangeStore;
  /** Creates a user and returns its id. */
  readonly newUser: () => Promise<number>;
}

/**
 * The behaviour every `EmailChangeStore` owes its callers, above all that a change is consumed
 * once however many requests race for it, and that a user's newest request replaces the older.
 *
 * Call it at the top of a vitest test file; each case gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { EmailChangeStore } from "@tessera/accounts";
 * import { describeEmailChangeStoreContract } from "@tessera/accounts/testing";
 *
 * // Yours: a fresh, empty database, the store over it, and a way to add a user.
 * declare function openMyDatabase(): Promise<{ store: EmailChangeStore; newUser: () => Promise<number> }>;
 *
 * describeEmailChangeStoreContract("MyEmailChangeStore", openMyDatabase);
 * ```
 */
export function describeEmailChangeStoreContract(
  name: string,
  makeStore: () => Promise<EmailChangeStoreUnderTest>,
) {
  const change = (userId: number, newEmail: string, digest: string, at = T0) => ({
    userId,
    newEmail,
    digest,
    expiresAt: at + DAY,
    requestedAt: at,
  });

  describe(`EmailChangeStore contract: ${name}`, () => {
    it("peeks without using a change up, then consumes it once", async () => {
      const { store, newUser } = await makeStore();
      const ada = await newUser();
      await store.request(change(ada, "ada@new.example", "d1"));
      const pending = { userId: ada, newEmail: "ada@new.example", expiresAt: T0 + DAY };
      expect(await store.peek("d1")).toEqual(pending);
      expect(await store.peek("d1")).toEqual(pending);
      expect(await store.consume("d1")).toEqual(pending);
      expect(await store.consume("d1")).toBeUndefined();
      expect(await store.peek("d1")).toBeUndefined();
      expect(await store.consume("unknown")).toBeUndefined();
    });

    it("gives a change to exactly one of twenty racing consumes", async () => {
      const { store, newUser } = await makeStore();
      const ada = await newUser();
      await store.request(change(ada, "ada@new.example", "d2"));
      const racing = await Promise.all(Array.from({ length: 20 }, () => store.consume("d2")));
      expect(racing.filter((pending) => pending !== undefined)).toEqual([
        { userId: ada, newEmail: "ada@new.example", expiresAt: T0 + DAY },
      ]);
    });

    it("keeps one change per user: the newest request replaces the older, not another user's", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      await store.request(change(ada, "first@new.example", "old"));
      await store.request(change(bob, "bob@new.example", "bob"));
      await store.request(change(ada, "second@new.example", "new", T0 + 1000));
      expect(await store.peek("old")).toBeUndefined();
      expect(await store.consume("old")).toBeUndefined();
      expect(await store.consume("new")).toEqual({
        userId: ada,
        newEmail: "second@new.example",
        expiresAt: T0 + 1000 + DAY,
      });
      expect(await store.consume("bob")).toMatchObject({ userId: bob });
    });

    it("lets two users ask for the same address: the users' own index decides later", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      await store.request(change(ada, "shared@new.example", "a"));
      await store.request(change(bob, "shared@new.example", "b"));
      expect(await store.peek("a")).toMatchObject({ userId: ada, newEmail: "shared@new.example" });
      expect(await store.peek("b")).toMatchObject({ userId: bob, newEmail: "shared@new.example" });
    });

    it("returns an expired change with its expiry (whole seconds at most rounded down), leaving the judgement to the caller", async () => {
      const { store, newUser } = await makeStore();
      const ada = await newUser();
      await store.request({
        userId: ada,
        newEmail: "ada@new.example",
        digest: "d3",
        expiresAt: T0 - 1,
        requestedAt: T0 - DAY,
      });
      const consumed = await store.consume("d3");
      expect(consumed).toMatchObject({ userId: ada, newEmail: "ada@new.example" });
      // A store may keep whole seconds: never later than asked, at most a second earlier.
      expect(consumed!.expiresAt).toBeLessThanOrEqual(T0 - 1);
      expect(consumed!.expiresAt).toBeGreaterThan(T0 - 1 - 1000);
    });
  });
}
