import { describe, expect, it } from "vitest";
import type { NewPasskey, PasskeyStore } from "./passkey-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const MINUTE = 60_000;

/** A fresh passkey store, and a way to make the users its passkeys belong to. */
export interface PasskeyStoreUnderTest {
  readonly store: PasskeyStore;
  /** Creates a user and returns its id. */
  readonly newUser: () => Promise<number>;
}

function newPasskey(userId: number, credentialId: string, counter = 0): NewPasskey {
  return {
    userId,
    credentialId,
    publicKey: `key-of-${credentialId}`,
    counter,
    transports: ["internal", "hybrid"],
    name: `Passkey ${credentialId}`,
    createdAt: T0,
  };
}

/**
 * The behaviour every `PasskeyStore` owes its callers: a credential id belongs to one user,
 * ownership is part of every change, a counter only moves forward, and a challenge answers once,
 * for its own scope only, however many requests race for it.
 *
 * Call it at the top of a vitest test file; each case gets its own store from the maker.
 *
 * @example
 * ```ts
 * import type { PasskeyStore } from "@tessera/accounts";
 * import { describePasskeyStoreContract } from "@tessera/accounts/testing";
 *
 * // Yours: a fresh, empty database, the store over it, and a way to add a user.
 * declare function openMyDatabase(): Promise<{
 *   store: PasskeyStore;
 *   newUser: () => Promise<number>;
 * }>;
 *
 * describePasskeyStoreContract("MyPasskeyStore", openMyDatabase);
 * ```
 */
export function describePasskeyStoreContract(
  name: string,
  makeStore: () => Promise<PasskeyStoreUnderTest>,
) {
  describe(`PasskeyStore contract: ${name}`, () => {
    it("stores passkeys per user and refuses a credential id already taken", async () => {
      const { store, newUser } = await makeStore();
      const ada = await newUser();
      const bob = await newUser();
      const first = await store.createPasskey(newPasskey(ada, "cred-1", 3));
      expect(first).toEqual({ ...newPasskey(ada, "cred-1", 3), id: first?.id, lastUsedAt: null });
      const second = await store.createPasskey(newPasskey(ada, "cred-2"));
      expect(await store.createPasskey(newPasskey(bob, "cred-1"))).toBeUndefined();
      expect((await store.listPasskeys(ada)).map((passkey) => passkey.id)).toEqual([
        first?.id,
        second?.id,
      ]);
      expect(await store.listPasskeys(bob)).toEqual([]);
      expect(await store.countPasskeys(ada)).toBe(2);
      expect(await store.countPasskeys(bob)).toBe(0);
      expect(await store.findPasskey("cred-1")).toEqual(first);
      expect(await store.findPasskey("cred-unknown")).toBeUndefined();
    });

    it("keeps no transports as an empty list", async () => {
      const { store, newUser } = await makeStore();
      const userId = await newUser();
      await store.createPasskey({ ...newPasskey(userId, "cred-bare"), transports: [] });
      expect((await store.findPasskey("cred-bare"))?.transports).toEqual([]);
    });

    it("renames and deletes a passkey for its own user only", async () => {
      const { store, newUser } = await makeStore();
      const ada = await newUser();
      const bob = await newUser();
      const passkey = await store.createPasskey(newPasskey(ada, "cred-1"));
      const id = passkey?.id ?? -1;
      expect(await store.renamePasskey(bob, id, "Stolen")).toBe(false);
      expect(await store.deletePasskey(bob, id)).toBe(false);
      expect(await store.renamePasskey(ada, id, "Laptop")).toBe(true);
      expect((await store.findPasskey("cred-1"))?.name).toBe("Laptop");
      expect(await store.deletePasskey(ada, id)).toBe(true);
      expect(await store.deletePasskey(ada, id)).toBe(false);
      expect(await store.findPasskey("cred-1")).toBeUndefined();
    });

    it("moves a counter only forward, once among racing sign-ins", async () => {
      const { store, newUser } = await makeStore();
      const userId = await newUser();
      await store.createPasskey(newPasskey(userId, "cred-1", 5));
      expect(await store.usePasskey("cred-1", 5, T0)).toBe(false);
      expect(await store.usePasskey("cred-1", 4, T0)).toBe(false);
      expect(await store.usePasskey("cred-1", 0, T0)).toBe(false);
      const raced = await Promise.all(
        Array.from({ length: 6 }, () => store.usePasskey("cred-1", 6, T0 + MINUTE)),
      );
      expect(raced.filter(Boolean)).toHaveLength(1);
      const used = await store.findPasskey("cred-1");
      expect(used?.counter).toBe(6);
      expect(used?.lastUsedAt).toBe(T0 + MINUTE);
      expect(await store.usePasskey("cred-unknown", 9, T0)).toBe(false);
    });

    it("accepts a counter of 0 each time from an authenticator that keeps none", async () => {
      const { store, newUser } = await makeStore();
      const userId = await newUser();
      await store.createPasskey(newPasskey(userId, "cred-0"));
      expect(await store.usePasskey("cred-0", 0, T0)).toBe(true);
      expect(await store.usePasskey("cred-0", 0, T0 + MINUTE)).toBe(true);
      expect((await store.findPasskey("cred-0"))?.lastUsedAt).toBe(T0 + MINUTE);
    });

    it("hands a challenge to one of racing consumers, for its own scope only", async () => {
      const { store, newUser } = await makeStore();
      const ada = await newUser();
      const bob = await newUser();
      const expiresAt = T0 + 5 * MINUTE;
      const registration = { purpose: "registration", userId: ada } as const;
      const secondFactor = {
        purpose: "second_factor",
        userId: ada,
        mfaTokenDigest: "mfa-1",
      } as const;
      await store.createChallenge("reg", registration, expiresAt, T0);
      await store.createChallenge("mfa", secondFactor, expiresAt, T0);
      await store.createChallenge("free", { purpose: "sign_in" }, expiresAt, T0);

      expect(await store.consumeChallenge("reg", { purpose: "registration", userId: bob })).toBe(
        undefined,
      );
      expect(await store.consumeChallenge("reg", { purpose: "sign_in" })).toBeUndefined();
      expect(
        await store.consumeChallenge("mfa", { ...secondFactor, mfaTokenDigest: "mfa-2" }),
      ).toBe(undefined);
      expect(await store.consumeChallenge("mfa", { ...secondFactor, userId: bob })).toBeUndefined();
      expect(await store.consumeChallenge("mfa", registration)).toBeUndefined();
      expect(await store.consumeChallenge("free", registration)).toBeUndefined();

      for (const [digest, scope] of [
        ["reg", registration],
        ["mfa", secondFactor],
        ["free", { purpose: "sign_in" }],
      ] as const) {
        const raced = await Promise.all(
          Array.from({ length: 6 }, () => store.consumeChallenge(digest, scope)),
        );
        expect(raced.filter((taken) => taken !== undefined)).toEqual([expiresAt]);
      }
    });

    it("drops expired challenges when a new one comes", async () => {
      const { store, newUser } = await makeStore();
      const userId = await newUser();
      const scope = { purpose: "registration", userId } as const;
      await store.createChallenge("old", scope, T0 + MINUTE, T0);
      await store.createChallenge("old-free", { purpose: "sign_in" }, T0 + MINUTE, T0);
      await store.createChallenge("live", scope, T0 + 10 * MINUTE, T0);
      await store.createChallenge("new", { purpose: "sign_in" }, T0 + 7 * MINUTE, T0 + 2 * MINUTE);
      expect(await store.consumeChallenge("old", scope)).toBeUndefined();
      expect(await store.consumeChallenge("old-free", { purpose: "sign_in" })).toBeUndefined();
      expect(await store.consumeChallenge("live", scope)).toBe(T0 + 10 * MINUTE);
      expect(await store.consumeChallenge("new", { purpose: "sign_in" })).toBe(T0 + 7 * MINUTE);
    });
  });
}
