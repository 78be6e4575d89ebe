import type { ObjectStorage } from "./object-storage.js";

/** One stored object as a listing gives it. */
export interface StoredObjectEntry {
  readonly key: string;
  /** When its bytes (or content type) were last written, in epoch milliseconds. */
  readonly modifiedAt: number;
}

/** An object storage that can list what it holds, so objects no row references can be swept. */
export interface ListableObjectStorage extends ObjectStorage {
  /** Every stored object once, in no particular order. */
  list(): Promise<StoredObjectEntry[]>;
}

/**
 * Default age before an unreferenced object is swept: a write stores its files before it
 * inserts the row that references them, so a young object may be one whose row is on its way.
 */
export const DEFAULT_SWEEP_GRACE_MS = 60 * 60 * 1000;

/** Options of {@link sweepUnreferencedObjects}. */
export interface SweepOptions {
  /** Only objects last written at least this long ago are deleted (default one hour). */
  readonly olderThanMs?: number | undefined;
  /** Epoch milliseconds of "now" (default `Date.now()`). */
  readonly now?: number | undefined;
}

/**
 * Deletes the objects that no key in `referencedKeys` names and that are older than the grace
 * (a crash between storing a file and writing its row, or a failed delete, leaves such
 * objects). Returns the deleted keys. Pass every key any row holds, read from the store after
 * the writes you care about; the grace covers writes still in flight.
 */
export async function sweepUnreferencedObjects(
  storage: ListableObjectStorage,
  referencedKeys: ReadonlySet<string>,
  options: SweepOptions = {},
): Promise<string[]> {
  const cutoff = (options.now ?? Date.now()) - (options.olderThanMs ?? DEFAULT_SWEEP_GRACE_MS);
  const deleted: string[] = [];
  for (const entry of await storage.list()) {
    if (referencedKeys.has(entry.key) || entry.modifiedAt > cutoff) continue;
    await storage.delete(entry.key);
    deleted.push(entry.key);
  }
  return deleted;
}
