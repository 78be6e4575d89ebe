import { describe, expect, it } from "vitest";
import { generateSigningKey } from "../keys/signing-key.js";
import type { SigningKeyStore } from "../keys/signing-key-store.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

/**
 * The behaviour every `SigningKeyStore` owes a key set: keys listed by generation, one key per
 * generation and per `kid` (insert if absent, so racing processes add one), retirement once.
 * Call it at the top of a vitest test file; each case gets its own empty store from the maker.
 *
 * @example
 * ```ts
 * import type { SigningKeyStore } from "@tessera/bearer";
 * import { describeSigningKeyStoreContract } from "@tessera/bearer/testing";
 *
 * declare function openMySigningKeyStore(): Promise<SigningKeyStore>; // fresh and empty
 *
 * describeSigningKeyStoreContract("MySigningKeyStore", openMySigningKeyStore);
 * ```
 */
export function describeSigningKeyStoreContract(
  name: string,
  makeStore: () => Promise<SigningKeyStore>,
): void {
  describe(`SigningKeyStore contract: ${name}`, () => {
    it("adds keys and lists them by generation, times in whole seconds", async () => {
      const store = await makeStore();
      expect(await store.list()).toEqual([]);
      const [ed, ec, third] = await Promise.all([
        generateSigningKey("EdDSA"),
        generateSigningKey("ES256"),
        generateSigningKey("EdDSA"),
      ]);
      expect(await store.add({ privateJwk: ed, generation: 1, createdAt: T0 + 999 })).toBe(true);
      expect(await store.add({ privateJwk: third, generation: 3, createdAt: T0 + 3000 })).toBe(
        true,
      );
      expect(await store.add({ privateJwk: ec, generation: 2, createdAt: T0 + 2000 })).toBe(true);
      expect(await store.list()).toEqual([
        { privateJwk: ed, generation: 1, createdAt: T0, retiredAt: null },
        { privateJwk: ec, generation: 2, createdAt: T0 + 2000, retiredAt: null },
        { privateJwk: third, generation: 3, createdAt: T0 + 3000, retiredAt: null },
      ]);
    });

    it("adds nothing when the generation or the kid is taken", async () => {
      const store = await makeStore();
      const [first, second] = [
        await generateSigningKey("EdDSA"),
        await generateSigningKey("EdDSA"),
      ];
      expect(await store.add({ privateJwk: first, generation: 1, createdAt: T0 })).toBe(true);
      expect(await store.add({ privateJwk: second, generation: 1, createdAt: T0 })).toBe(false);
      expect(await store.add({ privateJwk: first, generation: 2, createdAt: T0 })).toBe(false);
      expect((await store.list()).map((key) => key.privateJwk.kid)).toEqual([first.kid]);
    });

    it("adds one key of a generation when two are added at once", async () => {
      const store = await makeStore();
      const keys = await Promise.all([generateSigningKey("ES256"), generateSigningKey("ES256")]);
      const added = await Promise.all(
        keys.map((privateJwk) => store.add({ privateJwk, generation: 1, createdAt: T0 })),
      );
      expect(added.filter(Boolean)).toHaveLength(1);
      const listed = await store.list();
      expect(listed).toHaveLength(1);
      expect(listed[0]!.privateJwk).toEqual(keys[added.indexOf(true)]);
    });

    it("retires a key once, from the time given", async () => {
      const store = await makeStore();
      const key = await generateSigningKey("EdDSA");
      await store.add({ privateJwk: key, generation: 1, createdAt: T0 });
      expect(await store.retire("no such kid", T0)).toBe(false);
      expect(await store.retire(key.kid, T0 + 60_500)).toBe(true);
      expect(await store.retire(key.kid, T0 + 120_000)).toBe(false);
      expect((await store.list())[0]!.retiredAt).toBe(T0 + 60_000);
    });

    it("lists copies: changing one changes nothing stored", async () => {
      const store = await makeStore();
      const key = await generateSigningKey("EdDSA");
      await store.add({ privateJwk: key, generation: 1, createdAt: T0 });
      const listed = (await store.list())[0]!;
      (listed.privateJwk as { d: string }).d = "changed";
      expect((await store.list())[0]!.privateJwk).toEqual(key);
    });
  });
}
