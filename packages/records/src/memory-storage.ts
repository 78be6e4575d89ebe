import { partOf } from "./object-reads.js";
import {
  assertStorageKey,
  type ByteRange,
  type ObjectStorage,
  type StoredObject,
  type StoredObjectInfo,
  type StoredObjectPart,
} from "./object-storage.js";

/** Object storage in a Map: for tests and single-process demos (objects vanish on exit). */
export class MemoryObjectStorage implements ObjectStorage {
  readonly #objects = new Map<string, StoredObject & { readonly version: string }>();
  // Each put is a new version, even of the same bytes under the same key.
  #puts = 0;

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertStorageKey(key);
    // A copy, so a caller reusing its buffer cannot change what was stored.
    this.#objects.set(key, { bytes: bytes.slice(), contentType, version: String(++this.#puts) });
  }

  async get(key: string): Promise<StoredObject | undefined> {
    assertStorageKey(key);
    const stored = this.#objects.get(key);
    return stored && { ...stored, bytes: stored.bytes.slice() };
  }

  async stat(key: string): Promise<StoredObjectInfo | undefined> {
    assertStorageKey(key);
    const stored = this.#objects.get(key);
    return stored && { size: stored.bytes.byteLength, version: stored.version };
  }

  async getRange(key: string, range: ByteRange): Promise<StoredObjectPart | undefined> {
    assertStorageKey(key);
    const stored = this.#objects.get(key);
    return stored && partOf(stored, range);
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
