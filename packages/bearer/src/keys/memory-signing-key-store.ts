import type { NewSigningKey, SigningKeyRecord, SigningKeyStore } from "./signing-key-store.js";

/**
 * Signing keys in this process's memory, for tests and single-process experiments: keys made
 * here are gone at exit, so tokens signed before a restart stop verifying. It keeps the SQL
 * store's semantics, whole seconds included, but not its sealing (nothing is written anywhere).
 */
export class MemorySigningKeyStore implements SigningKeyStore {
  readonly #keys: SigningKeyRecord[] = [];

  async list(): Promise<SigningKeyRecord[]> {
    return [...this.#keys].sort((a, b) => a.generation - b.generation).map(copy);
  }

  async add(key: NewSigningKey): Promise<boolean> {
    const taken = this.#keys.some(
      (stored) =>
        stored.generation === key.generation || stored.privateJwk.kid === key.privateJwk.kid,
    );
    if (taken) return false;
    this.#keys.push(copy({ ...key, createdAt: wholeSeconds(key.createdAt), retiredAt: null }));
    return true;
  }

  async retire(kid: string, at: number): Promise<boolean> {
    const index = this.#keys.findIndex(
      (stored) => stored.privateJwk.kid === kid && stored.retiredAt === null,
    );
    if (index < 0) return false;
    this.#keys[index] = { ...this.#keys[index]!, retiredAt: wholeSeconds(at) };
    return true;
  }
}

function copy(key: SigningKeyRecord): SigningKeyRecord {
  return { ...key, privateJwk: { ...key.privateJwk } };
}

/** The instant rounded down to the second, as the SQL store's timestamp text keeps it. */
function wholeSeconds(time: number): number {
  return Math.floor(time / 1000) * 1000;
}
