import { formatTimestamp, parseTimestamp } from "@tessera/core";
import type { KeyRing, SecretKeyBase } from "@tessera/crypto";
import { type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import {
  openSigningKey,
  sealSigningKey,
  signingKeySealingKeys,
} from "../keys/signing-key-sealing.js";
import type {
  NewSigningKey,
  SigningKeyRecord,
  SigningKeyStore,
} from "../keys/signing-key-store.js";

/**
 * Creates `signing_keys`: the JWT signing keys of EdDSA/ES256 tokens, private parts sealed.
 * `generation` is unique, so of two processes adding the first (or next) key, one wins.
 */
export const signingKeysMigration: Migration = {
  id: "0021_tessera_signing_keys",
  sql: portableDdl(`CREATE TABLE signing_keys (
  kid TEXT PRIMARY KEY,
  alg TEXT NOT NULL,
  generation INTEGER NOT NULL UNIQUE,
  sealed_key TEXT NOT NULL,
  created_at TEXT NOT NULL,
  retired_at TEXT
)`),
};

/** Options for {@link SqlSigningKeyStore}. */
export interface SqlSigningKeyStoreOptions {
  /** `SECRET_KEY_BASE` (and `SECRET_KEY_BASE_PREVIOUS`): the private keys are sealed under it. */
  readonly secrets: SecretKeyBase;
}

/**
 * Signing keys in SQL (SQLite, PostgreSQL, D1), each private JWK sealed with AES-256-GCM under
 * a key derived from the secret key base, its `kid` authenticated with it. Adding is one
 * `INSERT … ON CONFLICT DO NOTHING`, so racing processes add one key per generation.
 */
export class SqlSigningKeyStore implements SigningKeyStore {
  readonly #sealing: KeyRing;

  constructor(
    private readonly database: SqlDatabase,
    options: SqlSigningKeyStoreOptions,
  ) {
    this.#sealing = signingKeySealingKeys(options.secrets);
  }

  async list(): Promise<SigningKeyRecord[]> {
    const rows = await this.database.all<SigningKeyRow>(
      "SELECT kid, generation, sealed_key, created_at, retired_at FROM signing_keys ORDER BY generation",
    );
    return Promise.all(
      rows.map(async (row) => ({
        privateJwk: await openSigningKey(this.#sealing, row.kid, row.sealed_key),
        generation: Number(row.generation),
        createdAt: parseTimestamp(row.created_at),
        retiredAt: row.retired_at === null ? null : parseTimestamp(row.retired_at),
      })),
    );
  }

  async add(key: NewSigningKey): Promise<boolean> {
    const sealed = await sealSigningKey(this.#sealing, key.privateJwk);
    const result = await this.database.run(
      `INSERT INTO signing_keys (kid, alg, generation, sealed_key, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
      [
        key.privateJwk.kid,
        key.privateJwk.alg,
        key.generation,
        sealed,
        formatTimestamp(key.createdAt),
      ],
    );
    return result.changes > 0;
  }

  async retire(kid: string, at: number): Promise<boolean> {
    const result = await this.database.run(
      "UPDATE signing_keys SET retired_at = ? WHERE kid = ? AND retired_at IS NULL",
      [formatTimestamp(at), kid],
    );
    return result.changes > 0;
  }
}

interface SigningKeyRow {
  readonly kid: string;
  readonly generation: number;
  readonly sealed_key: string;
  readonly created_at: string;
  readonly retired_at: string | null;
}
