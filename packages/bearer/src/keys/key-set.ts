import { type Clock, systemClock } from "@tessera/core";
import { JWT_LIFETIME_SECONDS } from "../jwt.js";
import { type AsymmetricJwtAlgorithm, isAsymmetricJwtAlgorithm } from "../jwt-algorithm.js";
import { loadJose } from "../jwt-verification.js";
import { currentSigningKey, verifyingKeys } from "./key-lifetime.js";
import { type PublicJwks, publicJwks } from "./public-jwks.js";
import {
  generateSigningKey,
  type PrivateSigningJwk,
  publicPart,
  readPrivateSigningJwk,
} from "./signing-key.js";
import type { SigningKeyRecord, SigningKeyStore } from "./signing-key-store.js";

/** How often a key set reads its store again by default: a rotation elsewhere is seen by then. */
export const KEY_SET_REFRESH_INTERVAL_MS = 60_000;

/** A token naming an unknown `kid` reads the store again at most this often. */
export const UNKNOWN_KID_RELOAD_INTERVAL_MS = 1000;

/** The key that signs now, imported for jose. */
export interface SigningKeyInUse {
  readonly kid: string;
  readonly alg: AsymmetricJwtAlgorithm;
  readonly privateKey: CryptoKey;
}

/** A key that verifies now, imported for jose. */
export interface VerificationKey {
  readonly kid: string;
  readonly alg: AsymmetricJwtAlgorithm;
  readonly publicKey: CryptoKey;
}

/** The signing keys of EdDSA/ES256 tokens: the current one signs, the set verifies. */
export interface KeySet {
  /** The algorithm new keys are made for (`JWT_ALGORITHM`). */
  readonly algorithm: AsymmetricJwtAlgorithm;
  /** The current key; the store is read again once the last read is a refresh interval old. */
  signingKey(): Promise<SigningKeyInUse>;
  /**
   * The key a token's `kid` names, if it verifies now; an unknown `kid` reads the store again
   * (at most once a second), so a key another process just made is found.
   */
  verificationKey(kid: string): Promise<VerificationKey | undefined>;
  /** The public keys that verify now: what `/.well-known/jwks.json` serves. */
  publicJwks(): Promise<PublicJwks>;
  /** Reads the keys again now (after {@link rotateSigningKey} in this process, say). */
  refresh(): Promise<void>;
}

/** Options for {@link keySet}. */
export interface KeySetOptions {
  /** `JWT_ALGORITHM`: what a key made here is for; the current key must be of it. */
  readonly algorithm: AsymmetricJwtAlgorithm;
  /**
   * `JWT_PRIVATE_KEYS`: a JWK set as JSON text, `{"keys": [...]}`, of private keys with `kid`
   * and `alg`; the first signs, every one verifies. When given, the store is not used.
   */
  readonly privateKeys?: string | undefined;
  /** Where keys are kept otherwise; the first is made and added at first start. */
  readonly store?: SigningKeyStore | undefined;
  readonly clock?: Clock | undefined;
  /**
   * The longest lifetime of a token these keys sign (defaults to {@link JWT_LIFETIME_SECONDS}):
   * a replaced key keeps verifying this long after the next was made, plus the refresh
   * interval, during which another process may still sign with it.
   */
  readonly maxTokenLifetimeSeconds?: number | undefined;
  /** Defaults to {@link KEY_SET_REFRESH_INTERVAL_MS}. */
  readonly refreshIntervalMs?: number | undefined;
}

/** The keys as last read, with how long a replaced key keeps verifying. */
interface Snapshot {
  readonly keys: readonly SigningKeyRecord[];
  readonly loadedAt: number;
  readonly replacedKeyLifetimeMs: number;
}

/**
 * The key set of an app: from `privateKeys` (`JWT_PRIVATE_KEYS`) when given, else from the
 * store, where the first key is made at first start. Two processes starting at once both add
 * a key of generation 1 if absent and read the store again, so both use the one that won.
 * @throws {RangeError} for neither keys nor store, a `JWT_PRIVATE_KEYS` that is not a set of
 * private keys with distinct kids, or whose first key is not of `algorithm`.
 */
export async function keySet(options: KeySetOptions): Promise<KeySet> {
  const { algorithm } = options;
  if (!isAsymmetricJwtAlgorithm(algorithm)) {
    throw new RangeError(`a key set is for EdDSA or ES256, not ${String(algorithm)}`);
  }
  const clock = options.clock ?? systemClock;
  const refreshIntervalMs = options.refreshIntervalMs ?? KEY_SET_REFRESH_INTERVAL_MS;
  const lifetimeSeconds = options.maxTokenLifetimeSeconds ?? JWT_LIFETIME_SECONDS;
  if (!Number.isSafeInteger(lifetimeSeconds) || lifetimeSeconds < 1) {
    throw new RangeError("maxTokenLifetimeSeconds must be a positive integer");
  }
  if (!Number.isSafeInteger(refreshIntervalMs) || refreshIntervalMs < 0) {
    throw new RangeError("refreshIntervalMs must be a non-negative integer");
  }
  const { store } = options;
  let load: () => Promise<Snapshot>;
  if (options.privateKeys !== undefined) {
    const keys = parsePrivateKeys(options.privateKeys, algorithm);
    load = async () => ({ keys, loadedAt: clock(), replacedKeyLifetimeMs: Infinity });
  } else if (store) {
    load = async () => ({
      keys: await ensureCurrentKey(store, algorithm, clock()),
      loadedAt: clock(),
      replacedKeyLifetimeMs: lifetimeSeconds * 1000 + refreshIntervalMs,
    });
  } else {
    throw new RangeError("a key set needs JWT_PRIVATE_KEYS or a signing key store");
  }

  let snapshot = await load();
  let loading: Promise<Snapshot> | undefined;
  const reload = async (): Promise<Snapshot> => {
    loading ??= load().finally(() => {
      loading = undefined;
    });
    snapshot = await loading;
    return snapshot;
  };
  const fresh = async (): Promise<Snapshot> =>
    clock() - snapshot.loadedAt >= refreshIntervalMs ? reload() : snapshot;
  const verifying = (from: Snapshot) =>
    verifyingKeys(from.keys, clock(), from.replacedKeyLifetimeMs).map((key) => key.privateJwk);

  const privateKeys = new ImportedKeys("private");
  const publicKeys = new ImportedKeys("public");

  return {
    algorithm,
    async signingKey() {
      let current = currentSigningKey((await fresh()).keys, clock());
      // Retired since the last read: the next read makes a new key.
      if (!current) current = currentSigningKey((await reload()).keys, clock());
      if (!current) throw new Error("no signing key could be made");
      const jwk = current.privateJwk;
      return { kid: jwk.kid, alg: jwk.alg, privateKey: await privateKeys.get(jwk) };
    },
    async verificationKey(kid) {
      let from = await fresh();
      let jwk = verifying(from).find((key) => key.kid === kid);
      if (!jwk && store && clock() - from.loadedAt >= UNKNOWN_KID_RELOAD_INTERVAL_MS) {
        from = await reload();
        jwk = verifying(from).find((key) => key.kid === kid);
      }
      if (!jwk) return undefined;
      return { kid: jwk.kid, alg: jwk.alg, publicKey: await publicKeys.get(jwk) };
    },
    async publicJwks() {
      return publicJwks(verifying(await fresh()));
    },
    async refresh() {
      await reload();
    },
  };
}

/**
 * Adds a new current key of `alg` to the store; the old ones keep verifying until their last
 * token has expired. Of two rotations at once, one adds the key and the other uses it.
 * Processes see the new key within their key set's refresh interval.
 */
export async function rotateSigningKey(
  store: SigningKeyStore,
  alg: AsymmetricJwtAlgorithm,
  clock: Clock = systemClock,
): Promise<SigningKeyRecord> {
  const keys = await store.list();
  const generation = nextGeneration(keys);
  await store.add({ privateJwk: await generateSigningKey(alg), generation, createdAt: clock() });
  const added = (await store.list()).find((key) => key.generation === generation);
  if (!added) throw new Error("the rotated key is not in the store");
  return added;
}

/** The store's keys once one of `alg` is current: made and added if absent, then read again. */
async function ensureCurrentKey(
  store: SigningKeyStore,
  alg: AsymmetricJwtAlgorithm,
  now: number,
): Promise<SigningKeyRecord[]> {
  const keys = await store.list();
  if (currentSigningKey(keys, now)?.privateJwk.alg === alg) return keys;
  // Insert if absent: of processes racing here, one adds this generation, all read it back.
  await store.add({
    privateJwk: await generateSigningKey(alg),
    generation: nextGeneration(keys),
    createdAt: now,
  });
  return store.list();
}

function nextGeneration(keys: readonly SigningKeyRecord[]): number {
  return keys.reduce((highest, key) => Math.max(highest, key.generation), 0) + 1;
}

/** `JWT_PRIVATE_KEYS` as records: the first key is the newest generation, so it signs. */
function parsePrivateKeys(text: string, algorithm: AsymmetricJwtAlgorithm): SigningKeyRecord[] {
  let set: unknown;
  try {
    set = JSON.parse(text);
  } catch {
    throw new RangeError("JWT_PRIVATE_KEYS is not JSON");
  }
  const keys = (set as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new RangeError(
      'JWT_PRIVATE_KEYS must be a JWK set: {"keys": [...]} with one key or more',
    );
  }
  const jwks = keys.map(readPrivateSigningJwk);
  if (new Set(jwks.map((jwk) => jwk.kid)).size !== jwks.length) {
    throw new RangeError("JWT_PRIVATE_KEYS holds two keys with one kid");
  }
  if (jwks[0]!.alg !== algorithm) {
    throw new RangeError(`the first key of JWT_PRIVATE_KEYS signs, and is not ${algorithm}`);
  }
  return jwks.map((privateJwk, index) => ({
    privateJwk,
    generation: jwks.length - index,
    createdAt: 0,
    retiredAt: null,
  }));
}

/** Keys imported into WebCrypto once per kid, not per token. */
class ImportedKeys {
  readonly #keys = new Map<string, Promise<CryptoKey>>();
  constructor(private readonly part: "private" | "public") {}

  get(jwk: PrivateSigningJwk): Promise<CryptoKey> {
    const cacheKey = `${jwk.kid}\u0000${jwk.x}`;
    let key = this.#keys.get(cacheKey);
    if (!key) {
      key = loadJose().then(({ importJWK }) =>
        importJWK(this.part === "private" ? { ...jwk } : publicPart(jwk), jwk.alg),
      ) as Promise<CryptoKey>;
      this.#keys.set(cacheKey, key);
    }
    return key;
  }
}
