import { formatTimestamp } from "@tessera/core";
import { randomToken, sha256Hex } from "@tessera/crypto";
import { describe, expect, it } from "vitest";
import { readBearerToken } from "../src/authorization-header.js";
import { createBearerAuthenticator } from "../src/bearer-authenticator.js";
import { createApiKey } from "../src/create-api-key.js";
import { createJwtIssuer } from "../src/jwt.js";
import { MemoryApiKeyStore } from "../src/memory-api-key-store.js";
import { SECRET } from "./hand-made-jwt.js";

interface User {
  readonly id: number;
  readonly email: string;
  readonly credentialsChangedAt?: number;
}

const T0 = Date.UTC(2025, 0, 1);
const HOUR = 3_600_000;

function setUp() {
  let now = T0;
  const clock = () => now;
  const users = new Map<number, User>([
    [1, { id: 1, email: "ada@example.com" }],
    [2, { id: 2, email: "bob@example.com" }],
  ]);
  const apiKeys = new MemoryApiKeyStore();
  const jwt = createJwtIssuer({ secrets: { current: SECRET }, clock });
  const authenticator = createBearerAuthenticator({
    jwt,
    apiKeys,
    findUser: async (id) => users.get(id),
    credentialsChangedAt: (user) => user.credentialsChangedAt ?? null,
    clock,
  });
  const newKey = async (userId: number) => {
    const created = await createApiKey(apiKeys, { userId, name: "ci" }, clock);
    if (!created.ok) throw new Error("the name is valid");
    return created.value;
  };
  return {
    users,
    apiKeys,
    jwt,
    newKey,
    setNow: (ms: number) => {
      now = ms;
    },
    authenticate: (authorization?: string | string[]) => {
      const headers = new Headers();
      for (const value of [authorization ?? []].flat()) headers.append("Authorization", value);
      return authenticator.authenticate(new Request("http://app.test/api/auth/me", { headers }));
    },
  };
}

describe("readBearerToken", () => {
  it("takes one token after the Bearer scheme in any letter case", () => {
    expect(readBearerToken("Bearer abc.def-_~+/=")).toEqual({ ok: true, value: "abc.def-_~+/=" });
    expect(readBearerToken("bearer abc")).toEqual({ ok: true, value: "abc" });
    expect(readBearerToken("BEARER abc")).toEqual({ ok: true, value: "abc" });
    expect(readBearerToken("Bearer   abc")).toEqual({ ok: true, value: "abc" });
  });

  it("refuses a missing header, other schemes, empty, several or odd tokens", () => {
    expect(readBearerToken(null)).toEqual({ ok: false, reason: "missing-header" });
    expect(readBearerToken("")).toEqual({ ok: false, reason: "missing-header" });
    for (const header of [
      "Bearer",
      "Bearer ",
      "Bearerabc",
      "Basic YWxhZGRpbjpvcGVuc2VzYW1l",
      "Token abc",
      "Bearer abc def",
      "Bearer abc, Bearer def",
      "Bearer\tabc",
      " Bearer abc",
      "Bearer abc ",
      "Bearer a=b",
      "Bearer ab\u00e9",
      "Bearer abc\n",
    ]) {
      expect(readBearerToken(header), header).toEqual({ ok: false, reason: "malformed-header" });
    }
  });
});

describe("authenticate", () => {
  it("refuses requests without usable credentials", async () => {
    const { authenticate } = setUp();
    expect(await authenticate()).toEqual({ ok: false, reason: "missing-header" });
    expect(await authenticate("Basic YWxhZGRpbjpvcGVuc2VzYW1l")).toEqual({
      ok: false,
      reason: "malformed-header",
    });
  });

  it("refuses two Authorization headers, even when both are valid", async () => {
    const { authenticate, jwt } = setUp();
    const { token } = await jwt.issue(1);
    expect(await authenticate([`Bearer ${token}`, `Bearer ${token}`])).toEqual({
      ok: false,
      reason: "malformed-header",
    });
  });

  it("authenticates a JWT by its subject, whatever the scheme's letter case", async () => {
    const { authenticate, jwt } = setUp();
    const { token } = await jwt.issue(2);
    const expected = {
      ok: true,
      value: { user: { id: 2, email: "bob@example.com" }, credential: "jwt" },
    };
    expect(await authenticate(`Bearer ${token}`)).toEqual(expected);
    expect(await authenticate(`bearer ${token}`)).toEqual(expected);
  });

  it("refuses an expired JWT and one whose payload was swapped for another user's", async () => {
    const { authenticate, jwt, setNow } = setUp();
    const { token } = await jwt.issue(1);
    const [header, , signature] = token.split(".");
    const otherPayload = (await jwt.issue(2)).token.split(".")[1];
    expect(await authenticate(`Bearer ${header}.${otherPayload}.${signature}`)).toEqual({
      ok: false,
      reason: "bad-signature",
    });
    setNow(T0 + HOUR);
    expect(await authenticate(`Bearer ${token}`)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses a JWT whose subject is not a positive decimal user id", async () => {
    const { authenticate, jwt } = setUp();
    for (const subject of [
      "0",
      "-1",
      "01",
      "1.0",
      "1e3",
      " 1",
      "abc",
      "9007199254740993",
      "99999999999999999",
    ]) {
      const { token } = await jwt.issue(subject);
      expect(await authenticate(`Bearer ${token}`), subject).toEqual({
        ok: false,
        reason: "invalid-claims",
      });
    }
  });

  it("authenticates an API key and reports which key it was", async () => {
    const { authenticate, newKey } = setUp();
    const { key, api_key } = await newKey(1);
    expect(await authenticate(`Bearer ${key}`)).toEqual({
      ok: true,
      value: {
        user: { id: 1, email: "ada@example.com" },
        credential: "api_key",
        apiKeyId: api_key.id,
      },
    });
  });

  it("refuses unknown keys and strings that are not keys", async () => {
    const { authenticate } = setUp();
    for (const token of [randomToken(), "short", `${randomToken()}x`, "a".repeat(43)]) {
      expect(await authenticate(`Bearer ${token}`)).toEqual({
        ok: false,
        reason: "unknown-api-key",
      });
    }
  });

  it("refuses a revoked key at once, and only its owner can revoke it", async () => {
    const { authenticate, newKey, apiKeys } = setUp();
    const { key, api_key } = await newKey(1);
    expect(await apiKeys.deleteForUser(2, api_key.id)).toBe(false);
    expect((await authenticate(`Bearer ${key}`)).ok).toBe(true);
    expect(await apiKeys.deleteForUser(1, api_key.id)).toBe(true);
    expect(await authenticate(`Bearer ${key}`)).toEqual({ ok: false, reason: "unknown-api-key" });
  });

  it("writes last_used_at on first use, then at most once an hour", async () => {
    const { authenticate, newKey, apiKeys, setNow } = setUp();
    const { key } = await newKey(1);
    const lastUsed = async () => {
      const used = (await apiKeys.listForUser(1))[0]!.lastUsedAt;
      return used === null ? null : formatTimestamp(used);
    };
    expect(await lastUsed()).toBeNull();
    setNow(T0 + 5000);
    await authenticate(`Bearer ${key}`);
    expect(await lastUsed()).toBe("2025-01-01 00:00:05");
    setNow(T0 + 5000 + HOUR - 1000);
    expect((await authenticate(`Bearer ${key}`)).ok).toBe(true);
    expect(await lastUsed()).toBe("2025-01-01 00:00:05");
    setNow(T0 + 5000 + HOUR);
    await authenticate(`Bearer ${key}`);
    expect(await lastUsed()).toBe("2025-01-01 01:00:05");
  });

  it("refuses a deleted user's JWT and API key, without touching the key", async () => {
    const { authenticate, jwt, newKey, users, apiKeys } = setUp();
    const { token } = await jwt.issue(1);
    const { key } = await newKey(1);
    users.delete(1);
    expect(await authenticate(`Bearer ${token}`)).toEqual({ ok: false, reason: "unknown-user" });
    expect(await authenticate(`Bearer ${key}`)).toEqual({ ok: false, reason: "unknown-user" });
    expect((await apiKeys.listForUser(1))[0]!.lastUsedAt).toBeNull();
  });

  it("refuses a JWT issued before its user's credentials changed, and keeps API keys", async () => {
    const { authenticate, jwt, newKey, users, setNow } = setUp();
    const before = (await jwt.issue(1)).token;
    const { key } = await newKey(1);
    setNow(T0 + 1_500);
    users.set(1, { id: 1, email: "ada@example.com", credentialsChangedAt: T0 + 1_500 });
    const sameSecond = (await jwt.issue(1)).token;
    setNow(T0 + 2_000);
    const after = (await jwt.issue(1)).token;

    expect(await authenticate(`Bearer ${before}`)).toEqual({
      ok: false,
      reason: "credentials-changed",
    });
    for (const token of [sameSecond, after]) {
      expect(await authenticate(`Bearer ${token}`)).toMatchObject({
        ok: true,
        value: { user: { id: 1 } },
      });
    }
    expect(await authenticate(`Bearer ${key}`)).toMatchObject({
      ok: true,
      value: { credential: "api_key" },
    });
  });

  it("refuses a token acting for its user unless checkActor vouches for the actor", async () => {
    const { authenticate, jwt, users, apiKeys } = setUp();
    const acting = { at: T0, factors: ["impersonation"], actor: "2" };
    const token = (await jwt.issue(1, acting)).token;
    expect(await authenticate(`Bearer ${token}`)).toEqual({ ok: false, reason: "actor-refused" });

    const asked: [string, number, number][] = [];
    let vouch = true;
    const checked = createBearerAuthenticator({
      jwt,
      apiKeys,
      findUser: async (id) => users.get(id),
      checkActor: async (actorId, user, issuedAt) => {
        asked.push([actorId, user.id, issuedAt]);
        return vouch;
      },
    });
    const request = new Request("http://app.test/", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await checked.authenticate(request)).toMatchObject({
      ok: true,
      value: { user: { id: 1 }, authentication: { actor: "2" } },
    });
    expect(asked).toEqual([["2", 1, T0]]);
    vouch = false;
    expect(await checked.authenticate(request)).toEqual({ ok: false, reason: "actor-refused" });
    // A token without act is never asked about.
    const own = (await jwt.issue(1, { at: T0, factors: ["password"] })).token;
    const ownRequest = new Request("http://app.test/", {
      headers: { authorization: `Bearer ${own}` },
    });
    expect(await checked.authenticate(ownRequest)).toMatchObject({ ok: true });
    expect(asked).toHaveLength(2);
  });

  it("with findKeyHolder, finds a key and its user in that one lookup", async () => {
    const { users, apiKeys, jwt, newKey } = setUp();
    const { key, api_key } = await newKey(2);
    const lookups: string[] = [];
    const authenticator = createBearerAuthenticator<User>({
      jwt,
      // Only the last_used_at write may reach the store: finding goes through the holder.
      apiKeys: {
        create: (created) => apiKeys.create(created),
        listForUser: (userId) => apiKeys.listForUser(userId),
        deleteForUser: (userId, id) => apiKeys.deleteForUser(userId, id),
        touchLastUsed: (id, usedAt, staleAt) => apiKeys.touchLastUsed(id, usedAt, staleAt),
        findByDigest: () => Promise.reject(new Error("findByDigest was asked")),
      },
      findUser: () => Promise.reject(new Error("findUser was asked")),
      findKeyHolder: async (digest) => {
        lookups.push(digest);
        const found = await apiKeys.findByDigest(digest);
        return found && { key: found, user: users.get(found.userId)! };
      },
      clock: () => T0 + 5000,
    });
    const authenticate = (credential: string) =>
      authenticator.authenticate(
        new Request("http://app.test/api/auth/me", {
          headers: { authorization: `Bearer ${credential}` },
        }),
      );
    expect(await authenticate(key)).toEqual({
      ok: true,
      value: { user: users.get(2), credential: "api_key", apiKeyId: api_key.id },
    });
    expect(lookups).toEqual([sha256Hex(key)]);
    expect((await apiKeys.listForUser(2))[0]!.lastUsedAt).toBe(T0 + 5000);
    expect(await authenticate(randomToken())).toEqual({ ok: false, reason: "unknown-api-key" });
    expect(lookups).toHaveLength(2);
  });
});

describe("createBearerAuthenticator's options", () => {
  const jwt = createJwtIssuer({ secrets: { current: SECRET } });
  const complete = { jwt, apiKeys: new MemoryApiKeyStore(), findUser: async () => undefined };

  it.each([
    [{ ...complete, jwt: undefined }, "createBearerAuthenticator: `jwt` is missing"],
    [
      { ...complete, apiKeys: {} },
      "createBearerAuthenticator: `apiKeys` has no `findByDigest` method",
    ],
    [{ ...complete, findUser: undefined }, "createBearerAuthenticator: `findUser` is missing"],
  ])("refuses a mistake when it is created, naming the option (%#)", (options, message) => {
    expect(() => createBearerAuthenticator(options as never)).toThrow(TypeError);
    expect(() => createBearerAuthenticator(options as never)).toThrow(message);
  });
});
