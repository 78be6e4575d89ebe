import type { PrivateSigningJwk } from "./signing-key.js";

/**
 * One stored signing key. `generation` orders the keys (1, 2, …; at most one key per
 * generation), so the newest is the one that signs, and two processes that make a key at
 * once cannot both add one.
 */
export interface SigningKeyRecord {
  readonly privateJwk: PrivateSigningJwk;
  readonly generation: number;
  /** When it was made, epoch milliseconds (whole seconds once stored). */
  readonly createdAt: number;
  /** When it was retired (it verifies nothing from then on), or null. */
  readonly retiredAt: number | null;
}

/** A key to add: a record not yet retired. */
export type NewSigningKey = Omit<SigningKeyRecord, "retiredAt">;

/**
 * Where the signing keys of a {@link KeySet} live, shared by every process of an app. The SQL
 * store keeps the private JWKs sealed (AES-256-GCM under a key derived from
 * `SECRET_KEY_BASE`); the memory store keeps them in memory.
 */
export interface SigningKeyStore {
  /** Every key, retired ones included, by generation ascending. */
  list(): Promise<SigningKeyRecord[]>;
  /**
   * Adds a key unless its generation or `kid` is taken (one statement: insert if absent);
   * false when it was, so the caller reads the list again and uses the key that won.
   */
  add(key: NewSigningKey): Promise<boolean>;
  /** Retires a key not yet retired, from `at` (epoch ms); false when none was. */
  retire(kid: string, at: number): Promise<boolean>;
}
