import { describe, expect, it } from "vitest";
import type { SecondFactorStore } from "./second-factor-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const MINUTE = 60_000;

/** A fresh second-factor store, and a way to make the users its factors belong to. */
export interface SecondFactorStoreUnderTest {
  readonly store: SecondFactorStore;
  /** Creates a user and returns its id. */
  readonly newUser: () => Promise<number>;
}

/**
 * The behaviour every `SecondFactorStore` owes its callers, above all that a TOTP step, a backup
 * code and a challenge are each used once however many requests race for them.
 *
 * Call it at the top of a vitest test file; each case gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { SecondFactorStore } from "@tessera/accounts";
 * import { describeSecondFactorStoreContract } from "@tessera/accounts/testing";
 *
 * // Yours: a fresh, empty database, the store over it, and a way to add a user.
 * declare function openMyDatabase(): Promise<{
 *   store: SecondFactorStore;
 *   newUser: () => Promise<number>;
 * }>;
 *
 * describeSecondFactorStoreContract("MySecondFactorStore", openMyDatabase);
 * ```
 */
export function describeSecondFactorStoreContract(
  name: string,
  makeStore: () => Promise<SecondFactorStoreUnderTest>,
) {
  async function confirmed(codes: readonly string[] = ["code-a", "code-b"]) {
    const { store, newUser } = await makeStore();
    const userId = await newUser();
    await store.savePendingTotp(userId, "sealed-1", T0);
    expect(await store.confirmTotp(userId, 100, codes, T0)).toBe(true);
    return { store, newUser, userId };
  }

  describe(`SecondFactorStore contract: ${name}`, () => {
    it("keeps a pending enrolment, replaced by the next one, until it is confirmed", async () => {
      const { store, newUser } = await makeStore();
      const userId = await newUser();
      expect(await store.findTotp(userId)).toBeUndefined();
      expect(await store.savePendingTotp(userId, "sealed-1", T0)).toBe(true);
      expect(await store.savePendingTotp(userId, "sealed-2", T0)).toBe(true);
      expect(await store.findTotp(userId)).toEqual({
        userId,
        sealedKey: "sealed-2",
        confirmedAt: null,
        lastUsedStep: null,
      });
      expect(await store.confirmTotp(userId, 77, ["a", "b", "c"], T0 + MINUTE)).toBe(true);
      expect(await store.findTotp(userId)).toEqual({
        userId,
        sealedKey: "sealed-2",
        confirmedAt: T0 + MINUTE,
        lastUsedStep: 77,
      });
      expect(await store.countBackupCodes(userId)).toBe(3);
    });

    it("refuses a new pending enrolment, or a second confirmation, once one is confirmed", async () => {
      const { store, userId } = await confirmed();
      expect(await store.savePendingTotp(userId, "sealed-evil", T0)).toBe(false);
      expect(await store.confirmTotp(userId, 200, ["x"], T0)).toBe(false);
      const enrolment = await store.findTotp(userId);
      expect(enrolment?.sealedKey).toBe("sealed-1");
      expect(enrolment?.lastUsedStep).toBe(100);
      expect(await store.countBackupCodes(userId)).toBe(2);
    });

    it("accepts each TOTP step once, only forward, and one of racing requests", async () => {
      const { store, userId } = await confirmed();
      expect(await store.useTotpStep(userId, 100)).toBe(false);
      expect(await store.useTotpStep(userId, 99)).toBe(false);
      const raced = await Promise.all(
        Array.from({ length: 6 }, () => store.useTotpStep(userId, 101)),
      );
      expect(raced.filter(Boolean)).toHaveLength(1);
      expect((await store.findTotp(userId))?.lastUsedStep).toBe(101);
    });

    it("uses no step for a user whose enrolment is pending or absent", async () => {
      const { store, newUser } = await makeStore();
      const pending = await newUser();
      await store.savePendingTotp(pending, "sealed", T0);
      expect(await store.useTotpStep(pending, 5)).toBe(false);
      expect(await store.useTotpStep(await newUser(), 5)).toBe(false);
    });

    it("consumes a backup code once, for its own user only, among several digests", async () => {
      const { store, newUser, userId } = await confirmed();
      const other = await newUser();
      expect(await store.consumeBackupCode(other, ["code-a"])).toBe(false);
      const raced = await Promise.all(
        Array.from({ length: 6 }, () => store.consumeBackupCode(userId, ["unknown", "code-a"])),
      );
      expect(raced.filter(Boolean)).toHaveLength(1);
      expect(await store.consumeBackupCode(userId, [])).toBe(false);
      expect(await store.countBackupCodes(userId)).toBe(1);
    });

    it("replaces backup codes: the old ones stop working", async () => {
      const { store, userId } = await confirmed();
      await store.replaceBackupCodes(userId, ["new-a", "new-b", "new-c"], T0);
      expect(await store.consumeBackupCode(userId, ["code-a"])).toBe(false);
      expect(await store.consumeBackupCode(userId, ["new-b"])).toBe(true);
      expect(await store.countBackupCodes(userId)).toBe(2);
    });

    it("deletes the enrolment with every backup code", async () => {
      const { store, userId } = await confirmed();
      await store.deleteTotp(userId);
      expect(await store.findTotp(userId)).toBeUndefined();
      expect(await store.countBackupCodes(userId)).toBe(0);
      expect(await store.savePendingTotp(userId, "sealed-again", T0)).toBe(true);
    });

    it("counts a challenge's answers and hands it to one of racing consumers", async () => {
      const { store, newUser } = await makeStore();
      const userId = await newUser();
      await store.createChallenge("digest-1", userId, "password", T0 + 5 * MINUTE, T0);
      expect(await store.findChallenge("digest-1")).toEqual({
        userId,
        firstFactor: "password",
        expiresAt: T0 + 5 * MINUTE,
        failures: 0,
      });
      expect(await store.countChallengeAttempt("digest-1", 5, T0)).toEqual({
        userId,
        firstFactor: "password",
        expiresAt: T0 + 5 * MINUTE,
        failures: 1,
      });
      expect((await store.countChallengeAttempt("digest-1", 5, T0))?.failures).toBe(2);
      expect(await store.countChallengeAttempt("unknown", 5, T0)).toBeUndefined();
      const raced = await Promise.all(
        Array.from({ length: 6 }, () => store.consumeChallenge("digest-1")),
      );
      expect(raced.filter(Boolean)).toEqual([
        { userId, firstFactor: "password", expiresAt: T0 + 5 * MINUTE, failures: 2 },
      ]);
      expect(await store.findChallenge("digest-1")).toBeUndefined();
    });

    it("counts no answer on a challenge at its cap or expired", async () => {
      const { store, newUser } = await makeStore();
      const userId = await newUser();
      await store.createChallenge("digest-1", userId, "password", T0 + 5 * MINUTE, T0);
      expect((await store.countChallengeAttempt("digest-1", 2, T0))?.failures).toBe(1);
      expect(await store.countChallengeAttempt("digest-1", 2, T0 + 5 * MINUTE)).toBeUndefined();
      expect((await store.countChallengeAttempt("digest-1", 2, T0))?.failures).toBe(2);
      expect(await store.countChallengeAttempt("digest-1", 2, T0)).toBeUndefined();
      expect((await store.findChallenge("digest-1"))?.failures).toBe(2);
    });

    it("counts no more than the cap of a burst of racing answers", async () => {
      const { store, newUser } = await makeStore();
      const userId = await newUser();
      await store.createChallenge("digest-1", userId, "password", T0 + 5 * MINUTE, T0);
      const burst = await Promise.all(
        Array.from({ length: 20 }, () => store.countChallengeAttempt("digest-1", 5, T0)),
      );
      const counted = burst.filter((challenge) => challenge !== undefined);
      expect(counted.map((challenge) => challenge.failures).sort()).toEqual([1, 2, 3, 4, 5]);
      expect((await store.findChallenge("digest-1"))?.failures).toBe(5);
    });

    it("keeps the first factor each challenge follows, through its failures and its consumption", async () => {
      const { store, newUser } = await makeStore();
      const userId = await newUser();
      const expiresAt = T0 + 5 * MINUTE;
      for (const firstFactor of ["password", "email_code", "email_link", "passkey"] as const) {
        await store.createChallenge(`after-${firstFactor}`, userId, firstFactor, expiresAt, T0);
      }
      expect((await store.findChallenge("after-email_code"))?.firstFactor).toBe("email_code");
      expect((await store.countChallengeAttempt("after-passkey", 5, T0))?.failures).toBe(1);
      expect(await store.consumeChallenge("after-passkey")).toEqual({
        userId,
        firstFactor: "passkey",
        expiresAt,
        failures: 1,
      });
      expect((await store.consumeChallenge("after-email_link"))?.firstFactor).toBe("email_link");
      expect((await store.consumeChallenge("after-password"))?.firstFactor).toBe("password");
    });

    it("drops the user's expired challenges when a new one comes, and nobody else's", async () => {
      const { store, newUser } = await makeStore();
      const userId = await newUser();
      const other = await newUser();
      await store.createChallenge("old", userId, "password", T0 + MINUTE, T0);
      await store.createChallenge("live", userId, "password", T0 + 10 * MINUTE, T0);
      await store.createChallenge("others", other, "password", T0 + MINUTE, T0);
      await store.createChallenge("new", userId, "password", T0 + 7 * MINUTE, T0 + 2 * MINUTE);
      expect(await store.findChallenge("old")).toBeUndefined();
      expect(await store.findChallenge("live")).toBeDefined();
      expect(await store.findChallenge("others")).toBeDefined();
      expect(await store.findChallenge("new")).toBeDefined();
    });
  });
}
