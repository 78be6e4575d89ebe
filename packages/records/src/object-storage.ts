import { randomToken } from "@tessera/crypto";

/** An object as storage gives it back. */
export interface StoredObject {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly contentType: string;
}

/**
 * Where attachment bytes live (a folder, S3, R2, memory). Keys are {@link newStorageKey} tokens
 * that implementations may refuse otherwise; the database keeps the filename and metadata.
 */
export interface ObjectStorage {
  /** Stores the bytes under `key`, replacing any object already there. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object, or undefined when there is none. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
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
