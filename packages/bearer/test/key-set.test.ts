import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations, openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { jwksRoute } from "../src/jwks-route.js";
import { createJwtIssuer } from "../src/jwt.js";
import { keySet } from "../src/keys/key-set.js";
import { MemorySigningKeyStore } from "../src/keys/memory-signing-key-store.js";
import { publicJwks } from "../src/keys/public-jwks.js";
import { generateSigningKey } from "../src/keys/signing-key.js";
import { SqlSigningKeyStore, signingKeysMigration } from "../src/sql/signing-key-store.js";

const T0 = Date.UTC(2025, 0, 1);
const SECRET = "a secret key base of at least thirty-two characters";
const folder = mkdtempSync(join(tmpdir(), "tessera-signing-keys-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("publicJwks", () => {
  it("gives kty, crv, x, y, kid, alg and use, and no private member", async () => {
    const [ed, ec] = [await generateSigningKey("EdDSA"), await generateSigningKey("ES256")];
    const set = publicJwks([ed, ec]);
    expect(set).toEqual({
      keys: [
        { kty: "OKP", crv: "Ed25519", x: ed.x, kid: ed.kid, alg: "EdDSA", use: "sig" },
        { kty: "EC", crv: "P-256", x: ec.x, y: ec.y, kid: ec.kid, alg: "ES256", use: "sig" },
      ],
    });
    for (const key of set.keys) expect(key).not.toHaveProperty("d");
    expect(JSON.stringify(set)).not.toContain(ed.d);
    expect(JSON.stringify(set)).not.toContain(ec.d);
  });
});

describe("generateSigningKey", () => {
  it("makes a private JWK whose kid is its RFC 7638 thumbprint", async () => {
    const { calculateJwkThumbprint } = await import("jose");
    for (const alg of ["EdDSA", "ES256"] as const) {
      const key = await generateSigningKey(alg);
      expect(key.alg).toBe(alg);
      expect(key.d).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const { d: _d, kid, alg: _alg, ...publicMembers } = key;
      expect(kid).toBe(await calculateJwkThumbprint(publicMembers));
    }
  });
});

describe("keySet from JWT_PRIVATE_KEYS", () => {
  it("signs with the first key and verifies with every one", async () => {
    const [first, second] = [await generateSigningKey("ES256"), await generateSigningKey("EdDSA")];
    const text = JSON.stringify({ keys: [first, second] });
    const keys = await keySet({ algorithm: "ES256", privateKeys: text, clock: () => T0 });
    expect((await keys.signingKey()).kid).toBe(first.kid);
    expect((await keys.publicJwks()).keys.map((key) => key.kid)).toEqual([first.kid, second.kid]);
    // A token of the second key (signed by a set that lists it first) verifies here.
    const secondFirst = await keySet({
      algorithm: "EdDSA",
      privateKeys: JSON.stringify({ keys: [second] }),
      clock: () => T0,
    });
    const { token } = await createJwtIssuer({
      algorithm: "EdDSA",
      keys: secondFirst,
      clock: () => T0,
    }).issue(9);
    const verifier = createJwtIssuer({ algorithm: "ES256", keys, clock: () => T0 });
    expect((await verifier.verify(token)).ok).toBe(true);
  });

  it("refuses what is not a set of private keys with distinct kids, the first of the algorithm", async () => {
    const key = await generateSigningKey("EdDSA");
    const { d: _d, ...publicOnly } = key;
    for (const privateKeys of [
      "not json",
      "{}",
      '{"keys": []}',
      JSON.stringify({ keys: [publicOnly] }),
      JSON.stringify({ keys: [key, key] }),
      JSON.stringify({ keys: [{ ...key, alg: "ES256" }] }),
      JSON.stringify({ keys: [{ ...key, kid: undefined }] }),
    ]) {
      await expect(keySet({ algorithm: "EdDSA", privateKeys })).rejects.toThrow(RangeError);
    }
    await expect(
      keySet({ algorithm: "ES256", privateKeys: JSON.stringify({ keys: [key] }) }),
    ).rejects.toThrow(/first key/);
  });
});

describe("jwksRoute", () => {
  it("answers GET /.well-known/jwks.json with the public set, cacheable for 5 minutes", async () => {
    const keys = await keySet({ algorithm: "EdDSA", store: new MemorySigningKeyStore() });
    const route = jwksRoute(keys);
    expect([route.method, route.path]).toEqual(["GET", "/.well-known/jwks.json"]);
    const response = await route.handle(new Request("http://app.example/.well-known/jwks.json"), {
      params: {},
      clientAddress: "127.0.0.1",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=300");
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const body = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(body).toEqual(await keys.publicJwks());
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).not.toHaveProperty("d");
    expect(body.keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });
  });
});

describe("SqlSigningKeyStore (SQLite)", () => {
  async function open(file: string) {
    const database = openSqliteFile(join(folder, file));
    await applyMigrations(database, [signingKeysMigration]);
    return database;
  }

  it("keeps private keys sealed: the row holds no private member, another secret opens nothing", async () => {
    const database = await open(`${crypto.randomUUID()}.db`);
    const store = new SqlSigningKeyStore(database, { secrets: { current: SECRET } });
    const key = await generateSigningKey("EdDSA");
    await store.add({ privateJwk: key, generation: 1, createdAt: T0 });
    const row = await database.get<Record<string, unknown>>("SELECT * FROM signing_keys");
    expect(row).toMatchObject({ kid: key.kid, alg: "EdDSA", generation: 1 });
    expect(JSON.stringify(row)).not.toContain(key.d);
    expect(JSON.stringify(row)).not.toContain(key.x);
    expect((await store.list())[0]!.privateJwk).toEqual(key);
    const otherSecret = new SqlSigningKeyStore(database, {
      secrets: { current: `${SECRET} but another` },
    });
    await expect(otherSecret.list()).rejects.toThrow(/does not open/);
    // After a rotation of the secret key base, the previous secret still opens it.
    const rotatedSecret = new SqlSigningKeyStore(database, {
      secrets: { current: `${SECRET} but another`, previous: SECRET },
    });
    expect((await rotatedSecret.list())[0]!.privateJwk).toEqual(key);
    database.close();
  });

  it("refuses a sealed key moved onto another row's kid", async () => {
    const database = await open(`${crypto.randomUUID()}.db`);
    const store = new SqlSigningKeyStore(database, { secrets: { current: SECRET } });
    const [a, b] = [await generateSigningKey("EdDSA"), await generateSigningKey("EdDSA")];
    await store.add({ privateJwk: a, generation: 1, createdAt: T0 });
    await store.add({ privateJwk: b, generation: 2, createdAt: T0 });
    await database.run(
      "UPDATE signing_keys SET sealed_key = (SELECT sealed_key FROM signing_keys WHERE generation = 1) WHERE generation = 2",
    );
    await expect(store.list()).rejects.toThrow(/does not open/);
    database.close();
  });

  it("two connections starting at once on an empty database end with one current key", async () => {
    const file = `${crypto.randomUUID()}.db`;
    const [one, two] = [await open(file), await open(file)];
    const sets = await Promise.all(
      [one, two].map((database) =>
        keySet({
          algorithm: "ES256",
          store: new SqlSigningKeyStore(database, { secrets: { current: SECRET } }),
        }),
      ),
    );
    const [kidOne, kidTwo] = await Promise.all(
      sets.map(async (set) => (await set.signingKey()).kid),
    );
    expect(kidOne).toBe(kidTwo);
    expect(await one.all("SELECT kid FROM signing_keys")).toEqual([{ kid: kidOne }]);
    one.close();
    two.close();
  });
});
