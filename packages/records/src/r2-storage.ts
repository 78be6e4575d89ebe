import { assertStorageKey, isStorageKey, type StoredObject } from "./object-storage.js";
import type { ListableObjectStorage, StoredObjectEntry } from "./object-sweep.js";

/** An object as an R2 binding's `get` gives it, as far as the storage reads it. */
export interface R2StoredObject {
  readonly httpMetadata?: { readonly contentType?: string };
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * The part of a Cloudflare R2 bucket binding (`env.FILES`) the storage uses. Described here
 * rather than imported, so the package needs no Workers types.
 */
export interface R2Bucket {
  put(
    key: string,
    value: Uint8Array,
    options: { httpMetadata: { contentType: string } },
  ): Promise<unknown>;
  get(key: string): Promise<R2StoredObject | null>;
  delete(key: string): Promise<void>;
  list(options: { cursor?: string; limit?: number }): Promise<{
    readonly objects: readonly { readonly key: string; readonly uploaded: Date }[];
    readonly truncated: boolean;
    readonly cursor?: string;
  }>;
}

/**
 * Attachments in an R2 bucket: one object per key, its content type in the object's HTTP
 * metadata. The sweep sees only objects named like a storage key, so other objects in the
 * bucket are never listed or swept; still, a bucket of their own keeps attachments apart.
 */
export class R2ObjectStorage implements ListableObjectStorage {
  readonly #bucket: R2Bucket;

  constructor(bucket: R2Bucket) {
    this.#bucket = bucket;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertStorageKey(key);
    await this.#bucket.put(key, bytes, { httpMetadata: { contentType } });
  }

  async get(key: string): Promise<StoredObject | undefined> {
    assertStorageKey(key);
    const object = await this.#bucket.get(key);
    if (!object) return undefined;
    return {
      bytes: new Uint8Array(await object.arrayBuffer()),
      contentType: object.httpMetadata?.contentType ?? "application/octet-stream",
    };
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    await this.#bucket.delete(key);
  }

  /** Every object whose name is a storage key, with its upload time, page by page. */
  async list(): Promise<StoredObjectEntry[]> {
    const entries: StoredObjectEntry[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#bucket.list({ limit: 1000, ...(cursor ? { cursor } : {}) });
      for (const object of page.objects) {
        if (!isStorageKey(object.key)) continue;
        entries.push({ key: object.key, modifiedAt: object.uploaded.getTime() });
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    return entries;
  }
}
