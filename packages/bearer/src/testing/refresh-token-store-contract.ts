import { randomToken, sha256Hex } from "@tessera/crypto";
import { describe, expect, it } from "vitest";
import type {
  NewRefreshTokenFamily,
  RefreshTokenStore,
  RefreshTokenSuccessor,
} from "../refresh/refresh-token-store.js";
import { refreshTokens } from "../refresh/refresh-tokens.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SECRETS = { current: "a secret key base of at least thirty-two characters" };

/** A fresh refresh token store, a way to make the users its families belong to, and maybe to delete one. */
export interface RefreshTokenStoreUnderTest {
  readonly store: RefreshTokenStore;
  newUser(): Promise<number>;
  /** Deletes a user row, when the store has a user table its families are deleted with. */
  deleteUser?(userId: number): Promise<unknown>;
}

/**
 * The behaviour every `RefreshTokenStore` owes the refresh token service: families stored with
 * their first token, a token used once (of concurrent uses, one wins, and through the service
 * every concurrent caller gets the same successor), revocation, the active families of a user,
 * the cleanup, and (given `deleteUser`) families deleted with their user. Call it at the top of
 * a vitest test file; each case gets its own empty store from the maker.
 *
 * @example
 * ```ts
 * import type { RefreshTokenStore } from "@tessera/bearer";
 * import { describeRefreshTokenStoreContract } from "@tessera/bearer/testing";
 *
 * declare function openMyRefreshTokenStore(): Promise<RefreshTokenStore>; // fresh and empty
 * declare function insertMyUser(): Promise<number>;
 *
 * describeRefreshTokenStoreContract("MyRefreshTokenStore", async () => ({
 *   store: await openMyRefreshTokenStore(),
 *   newUser: insertMyUser,
 * }));
 * ```
 */
export function describeRefreshTokenStoreContract(
  name: string,
  makeStore: () => Promise<RefreshTokenStoreUnderTest>,
): void {
  describe(`RefreshTokenStore contract: ${name}`, () => {
    it("stores a family with its first token, found by digest, times in whole seconds", async () => {
      const { store, newUser } = await makeStore();
      const ada = await newUser();
      const id = await store.createFamily(family(ada, "d1", { createdAt: T0 + 999 }));
      expect(await store.findToken("d1")).toEqual({
        token: { digest: "d1", familyId: id, createdAt: T0, usedAt: null, successorSealed: null },
        family: {
          id,
          userId: ada,
          createdAt: T0,
          lastUsedAt: T0,
          expiresAt: T0 + 30 * DAY,
          revokedAt: null,
          userAgent: "Firefox",
          ipAddress: "203.0.113.7",
          authTime: T0 - 1000,
          factors: ["password", "totp"],
        },
      });
      expect(await store.findToken("nope")).toBeUndefined();
      const other = await store.createFamily({
        ...family(ada, "d2"),
        userAgent: null,
        ipAddress: null,
        factors: ["passkey"],
      });
      expect(other).not.toBe(id);
      expect((await store.findToken("d2"))?.family).toMatchObject({
        id: other,
        userAgent: null,
        ipAddress: null,
        factors: ["passkey"],
      });
    });

    it("uses a token once: its successor joins the family, a second use writes nothing", async () => {
      const { store, newUser } = await makeStore();
      const id = await store.createFamily(family(await newUser(), "d1"));
      expect(await store.markUsed("d1", successor("d2"), T0 + HOUR + 500)).toBe(true);
      const used = await store.findToken("d1");
      expect(used?.token).toEqual({
        digest: "d1",
        familyId: id,
        createdAt: T0,
        usedAt: T0 + HOUR,
        successorSealed: "sealed d2",
      });
      expect(used?.family.lastUsedAt).toBe(T0 + HOUR);
      expect((await store.findToken("d2"))?.token).toEqual({
        digest: "d2",
        familyId: id,
        createdAt: T0 + HOUR,
        usedAt: null,
        successorSealed: null,
      });
      expect(await store.markUsed("d1", successor("d3"), T0 + 2 * HOUR)).toBe(false);
      expect(await store.findToken("d3")).toBeUndefined();
      expect((await store.findToken("d1"))?.token.successorSealed).toBe("sealed d2");
      expect((await store.findToken("d1"))?.family.lastUsedAt).toBe(T0 + HOUR);
      expect(await store.markUsed("nope", successor("d4"), T0)).toBe(false);
      expect(await store.findToken("d4")).toBeUndefined();
    });

    it("forgets a family's older sealed successors when its newest token is used", async () => {
      const { store, newUser } = await makeStore();
      const user = await newUser();
      await store.createFamily(family(user, "d1"));
      await store.createFamily(family(user, "other"));
      await store.markUsed("other", successor("other2"), T0 + 1000);
      await store.markUsed("d1", successor("d2"), T0 + 1000);
      await store.markUsed("d2", successor("d3"), T0 + 2000);
      expect((await store.findToken("d1"))?.token.successorSealed).toBeNull();
      expect((await store.findToken("d2"))?.token.successorSealed).toBe("sealed d3");
      expect((await store.findToken("other"))?.token.successorSealed).toBe("sealed other2");
    });

    it("uses no token of a revoked or expired family", async () => {
      const { store, newUser } = await makeStore();
      const user = await newUser();
      const revoked = await store.createFamily(family(user, "r1"));
      await store.revokeFamily(revoked, T0 + 1000);
      expect(await store.markUsed("r1", successor("r2"), T0 + 2000)).toBe(false);
      await store.createFamily({ ...family(user, "e1"), expiresAt: T0 + HOUR });
      expect(await store.markUsed("e1", successor("e2"), T0 + HOUR)).toBe(false);
      expect(await store.findToken("r2")).toBeUndefined();
      expect(await store.findToken("e2")).toBeUndefined();
      expect((await store.findToken("e1"))?.token.usedAt).toBeNull();
    });

    it("lets one of 20 concurrent uses of a token win", async () => {
      const { store, newUser } = await makeStore();
      await store.createFamily(family(await newUser(), "d1"));
      const uses = await Promise.all(
        Array.from({ length: 20 }, (_, index) => store.markUsed("d1", successor(`s${index}`), T0)),
      );
      expect(uses.filter(Boolean)).toHaveLength(1);
      const winner = `s${uses.indexOf(true)}`;
      expect((await store.findToken("d1"))?.token.successorSealed).toBe(`sealed ${winner}`);
      for (let index = 0; index < 20; index++) {
        const found = await store.findToken(`s${index}`);
        if (`s${index}` === winner) expect(found).toBeDefined();
        else expect(found).toBeUndefined();
      }
    });

    it("gives 20 concurrent refreshes with one token the same new token", async () => {
      const { store, newUser } = await makeStore();
      let wins = 0;
      // The store itself, counting the uses that won.
      const counted: RefreshTokenStore = {
        createFamily: (newFamily) => store.createFamily(newFamily),
        findToken: (digest) => store.findToken(digest),
        async markUsed(digest, next, at) {
          const won = await store.markUsed(digest, next, at);
          if (won) wins++;
          return won;
        },
        revokeFamily: (id, at) => store.revokeFamily(id, at),
        revokeUserFamilies: (userId, at) => store.revokeUserFamilies(userId, at),
        listFamilies: (userId, at) => store.listFamilies(userId, at),
        deleteExpired: (at) => store.deleteExpired(at),
      };
      let now = T0;
      const service = refreshTokens({ store: counted, secretKeyBase: SECRETS, clock: () => now });
      const user = await newUser();
      const { refreshToken } = await service.issue({
        userId: user,
        authentication: { at: T0, factors: ["password"] },
      });
      now += 1000;
      const results = await Promise.all(
        Array.from({ length: 20 }, () => service.rotate(refreshToken)),
      );
      expect(wins).toBe(1);
      const tokens = new Set(results.map((result) => (result.ok ? result.refreshToken : "")));
      expect(tokens.size).toBe(1);
      const [next] = [...tokens];
      expect(next).toMatch(/^[A-Za-z0-9_-]{43}$/);
      for (const result of results) {
        expect(result).toMatchObject({ ok: true, userId: user, refreshToken: next });
      }
      expect((await store.findToken(sha256Hex(next!)))?.token.usedAt).toBeNull();
      // The one successor rotates on; past the grace the first token revokes the family.
      expect((await service.rotate(next)).ok).toBe(true);
      now += 60_000;
      expect(await service.rotate(refreshToken)).toEqual({ ok: false, reason: "reused" });
      expect(await store.listFamilies(user, now)).toEqual([]);
    });

    it("revokes a family once, from the time given", async () => {
      const { store, newUser } = await makeStore();
      const id = await store.createFamily(family(await newUser(), "d1"));
      expect(await store.revokeFamily(id, T0 + 1500)).toBe(true);
      expect(await store.revokeFamily(id, T0 + 5000)).toBe(false);
      expect(await store.revokeFamily(id + 1000, T0)).toBe(false);
      expect((await store.findToken("d1"))?.family.revokedAt).toBe(T0 + 1000);
    });

    it("revokes every family of one user, and only theirs", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      const first = await store.createFamily(family(ada, "a1"));
      await store.revokeFamily(first, T0);
      await store.createFamily(family(ada, "a2"));
      await store.createFamily(family(ada, "a3"));
      await store.createFamily(family(bob, "b1"));
      expect(await store.revokeUserFamilies(ada, T0 + HOUR)).toBe(2);
      expect(await store.revokeUserFamilies(ada, T0 + 2 * HOUR)).toBe(0);
      expect((await store.findToken("a1"))?.family.revokedAt).toBe(T0);
      expect((await store.findToken("a3"))?.family.revokedAt).toBe(T0 + HOUR);
      expect((await store.findToken("b1"))?.family.revokedAt).toBeNull();
    });

    it("lists a user's active families, the newest sign-in first", async () => {
      const { store, newUser } = await makeStore();
      const [ada, bob] = [await newUser(), await newUser()];
      const older = await store.createFamily(family(ada, "a1", { createdAt: T0 }));
      const newer = await store.createFamily(family(ada, "a2", { createdAt: T0 + HOUR }));
      const revoked = await store.createFamily(family(ada, "a3", { createdAt: T0 + 2 * HOUR }));
      await store.revokeFamily(revoked, T0 + 2 * HOUR);
      await store.createFamily({ ...family(ada, "a4"), expiresAt: T0 + 3 * HOUR });
      await store.createFamily(family(bob, "b1"));
      await store.markUsed("a1", successor("a1'"), T0 + 4 * HOUR);
      const listed = await store.listFamilies(ada, T0 + 3 * HOUR);
      expect(listed.map((listedFamily) => listedFamily.id)).toEqual([newer, older]);
      expect(listed[1]).toMatchObject({
        createdAt: T0,
        lastUsedAt: T0 + 4 * HOUR,
        userAgent: "Firefox",
        ipAddress: "203.0.113.7",
      });
      expect(await store.listFamilies(ada, T0 + 31 * DAY)).toEqual([]);
    });

    it("deletes ended families with their tokens, and forgets old sealed successors", async () => {
      const { store, newUser } = await makeStore();
      const user = await newUser();
      await store.createFamily({ ...family(user, "expired"), expiresAt: T0 + HOUR });
      await store.markUsed("expired", successor("expired2"), T0 + 1000);
      const long = await store.createFamily(family(user, "revoked long ago"));
      await store.revokeFamily(long, T0);
      const recent = await store.createFamily(family(user, "revoked lately"));
      await store.revokeFamily(recent, T0 + 2 * HOUR);
      await store.createFamily(family(user, "active"));
      await store.markUsed("active", successor("active2"), T0 + 1000);
      const now = T0 + DAY + HOUR;
      expect(await store.deleteExpired(now)).toBe(2);
      for (const gone of ["expired", "expired2", "revoked long ago"]) {
        expect(await store.findToken(gone)).toBeUndefined();
      }
      expect(await store.findToken("revoked lately")).toBeDefined();
      expect((await store.findToken("active"))?.token).toMatchObject({
        usedAt: T0 + 1000,
        successorSealed: null,
      });
      expect(await store.findToken("active2")).toBeDefined();
      expect(await store.deleteExpired(now)).toBe(0);
    });

    it("keeps a sealed successor through the cleanup within a minute of its use", async () => {
      const { store, newUser } = await makeStore();
      await store.createFamily(family(await newUser(), "d1"));
      await store.markUsed("d1", successor("d2"), T0 + HOUR);
      expect(await store.deleteExpired(T0 + HOUR + 30_000)).toBe(0);
      expect((await store.findToken("d1"))?.token.successorSealed).toBe("sealed d2");
    });

    it("deletes a user's families and tokens with the user", async (context) => {
      const { store, newUser, deleteUser } = await makeStore();
      if (!deleteUser) return context.skip("the store has no user table");
      const [ada, bob] = [await newUser(), await newUser()];
      await store.createFamily(family(ada, "a1"));
      await store.markUsed("a1", successor("a2"), T0 + 1000);
      await store.createFamily(family(bob, "b1"));
      await deleteUser(ada);
      expect(await store.findToken("a1")).toBeUndefined();
      expect(await store.findToken("a2")).toBeUndefined();
      expect(await store.listFamilies(ada, T0)).toEqual([]);
      expect(await store.findToken("b1")).toBeDefined();
    });

    it("keeps only the digest of a token the service issues", async () => {
      const { store, newUser } = await makeStore();
      const service = refreshTokens({ store, secretKeyBase: SECRETS, clock: () => T0 });
      const issued = await service.issue({
        userId: await newUser(),
        authentication: { at: T0, factors: ["password"] },
        userAgent: "Firefox",
      });
      const found = await store.findToken(sha256Hex(issued.refreshToken));
      expect(found?.token.digest).toBe(sha256Hex(issued.refreshToken));
      expect(JSON.stringify(found)).not.toContain(issued.refreshToken);
      expect(await store.findToken(sha256Hex(randomToken()))).toBeUndefined();
    });
  });
}

function family(
  userId: number,
  tokenDigest: string,
  times: { createdAt?: number | undefined } = {},
): NewRefreshTokenFamily {
  const createdAt = times.createdAt ?? T0;
  return {
    userId,
    tokenDigest,
    createdAt,
    expiresAt: T0 + 30 * DAY,
    userAgent: "Firefox",
    ipAddress: "203.0.113.7",
    authTime: T0 - 1000,
    factors: ["password", "totp"],
  };
}

function successor(digest: string): RefreshTokenSuccessor {
  return { digest, sealed: `sealed ${digest}` };
}
