import { assertStorageKey, type ObjectStorage, type StoredObject } from "./object-storage.js";

/** Object storage in a Map: for tests and single-process demos (objects vanish on exit). */
export class MemoryObjectStorage implements ObjectStorage {
  readonly #objects = new Map<string, StoredObject>();

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertStorageKey(key);
    // A copy, so a caller reusing its buffer cannot change what was stored.
    this.#objects.set(key, { bytes: bytes.slice(), contentType });
  }

  async get(key: string): Promise<StoredObject | undefined> {
    assertStorageKey(key);
    const stored = this.#objects.get(key);
    return stored && { bytes: stored.bytes.slice(), contentType: stored.contentType };
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    this.#objects.delete(key);
  }

  /** The keys stored, in insertion order (for tests and diagnostics). */
  keys(): string[] {
    return [...this.#objects.keys()];
  }
}
