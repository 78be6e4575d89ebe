import { infoOf } from "./object-reads.js";
import {
  assertStorageKey,
  type ByteRange,
  isStorageKey,
  type StoredObject,
  type StoredObjectInfo,
  type StoredObjectPart,
} from "./object-storage.js";
import type { ListableObjectStorage, StoredObjectEntry } from "./object-sweep.js";

/** An object's metadata as an R2 binding's `head` gives it, as far as the storage reads it. */
export interface R2ObjectHead {
  /**
   * The whole object's length. R2 always gives it; an object from a stand-in bucket without it
   * is taken to be whole, as from a bucket that ignores ranges.
   */
  readonly size?: number | undefined;
  /** R2's entity tag of the bytes: new whenever other bytes are put under the key. */
  readonly etag?: string | undefined;
}

/** An object as an R2 binding's `get` gives it, as far as the storage reads it. */
export interface R2StoredObject extends R2ObjectHead {
  readonly httpMetadata?: { readonly contentType?: string | undefined } | undefined;
  /** The bytes: only those of the range when `get` was given one. */
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
  /** `options.range` reads only those bytes; a bucket that ignores it is cut here instead. */
  get(key: string, options?: { range?: ByteRange | undefined }): Promise<R2StoredObject | null>;
  /** Metadata without the bytes; without it, {@link R2ObjectStorage.stat} reads the object. */
  head?(key: string): Promise<R2ObjectHead | null>;
  delete(key: string): Promise<void>;
  list(options: { cursor?: string | undefined; limit?: number | undefined }): Promise<{
    readonly objects: readonly { readonly key: string; readonly uploaded: Date }[];
    readonly truncated: boolean;
    readonly cursor?: string | undefined;
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
    const bytes = new Uint8Array(await object.arrayBuffer());
    const contentType = object.httpMetadata?.contentType ?? "application/octet-stream";
    return object.etag === undefined
      ? { bytes, contentType }
      : { bytes, contentType, version: object.etag };
  }

  /** R2's `head`: size and etag without the bytes. */
  async stat(key: string): Promise<StoredObjectInfo | undefined> {
    assertStorageKey(key);
    const head = this.#bucket.head ? await this.#bucket.head(key) : undefined;
    if (head === null) return undefined;
    if (head?.size !== undefined) return info(head.size, head.etag);
    const object = await this.get(key);
    return object && infoOf(object);
  }

  /** R2's ranged `get`: only the range's bytes leave the bucket. */
  async getRange(key: string, range: ByteRange): Promise<StoredObjectPart | undefined> {
    assertStorageKey(key);
    let object: R2StoredObject | null;
    try {
      object = await this.#bucket.get(key, { range });
    } catch (error) {
      // R2 refuses a range that starts at or past the end: the object was replaced by a
      // shorter one since it was measured. Its new size says so (and no bytes are due);
      // any other failure is thrown as it came.
      const now = await this.stat(key);
      if (now && range.offset < now.size) throw error;
      return now && { ...now, bytes: new Uint8Array(0) };
    }
    if (!object) return undefined;
    const bytes = new Uint8Array(await object.arrayBuffer());
    const size = object.size ?? bytes.byteLength;
    // The whole object from a bucket that ignored the range: cut it here.
    const part =
      bytes.byteLength === size ? bytes.slice(range.offset, range.offset + range.length) : bytes;
    return { ...info(size, object.etag), bytes: part };
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

function info(size: number, etag: string | undefined): StoredObjectInfo {
  return etag === undefined ? { size } : { size, version: etag };
}
