import { randomToken } from "@tessera/crypto";

/** An object as storage gives it back. */
export interface StoredObject {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly contentType: string;
  /** See {@link StoredObjectInfo.version}. */
  readonly version?: string | undefined;
}

/** What storage knows of an object without reading its bytes. */
export interface StoredObjectInfo {
  /** The object's whole length in bytes. */
  readonly size: number;
  /**
   * A token that changes whenever the bytes under the key change (R2's etag; a file's inode,
   * size and times; a counter in memory); absent when the store keeps none. Downloads build
   * their `ETag` from it, so it must never stay the same across a change of the bytes.
   */
  readonly version?: string | undefined;
}

/** `length` bytes of an object from `offset` (both whole numbers, `length` at least 1). */
export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

/** Part of an object: the bytes of a {@link ByteRange}, with the object's whole size. */
export interface StoredObjectPart extends StoredObjectInfo {
  /** The range's bytes, cut at the object's end (none when it starts past the end). */
  readonly bytes: Uint8Array<ArrayBuffer>;
}

/**
 * Where attachment bytes live (a folder, S3, R2, memory). Keys are {@link newStorageKey} tokens
 * that implementations may refuse otherwise; the database keeps the filename and metadata.
 * `stat` and `getRange` are optional: a store without them still serves conditional and
 * ranged downloads, by reading the whole object and cutting it.
 */
export interface ObjectStorage {
  /** Stores the bytes under `key`, replacing any object already there. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object, or undefined when there is none. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Size and version without reading the bytes (for `HEAD`, `304` and `Range`); undefined when missing. */
  stat?(key: string): Promise<StoredObjectInfo | undefined>;
  /**
   * Reads only `range` (a range of a large object must not load the whole object), with the
   * object's size and version read together with those bytes; undefined when missing.
   */
  getRange?(key: string, range: ByteRange): Promise<StoredObjectPart | undefined>;
}

const STORAGE_KEY = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * True for a key Tessera would make: 16 to 128 URL-safe base64 characters. No separator,
 * dot or other character can appear, so a key can never name a path outside the store.
 */
export function isStorageKey(key: string): boolean {
  return STORAGE_KEY.test(key);
}

/** A new object key: 256 random bits as 43 base64url characters, unrelated to any filename. */
export function newStorageKey(): string {
  return randomToken();
}

/** Throws for a key that {@link isStorageKey} refuses: keys come from our code, never from a request. */
export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new RangeError("invalid object storage key");
}
