import type { CleanupTask } from "@tessera/core";
import { type ListableObjectStorage, sweepUnreferencedObjects } from "./object-sweep.js";

/** Options of {@link storedFileCleanups}. */
export interface StoredFileCleanupOptions {
  /** Only objects last written at least this long before the run are deleted (default one hour). */
  readonly olderThanMs?: number | undefined;
}

/**
 * The sweep of stored files as a {@link CleanupTask}: `unreferenced-stored-files` deletes the
 * objects no row references that are older than the grace at the run's time (see
 * {@link sweepUnreferencedObjects}). `referencedKeys` is read at each run, after the listing's
 * writes it must see: give it every file key any row holds.
 *
 * @example
 * ```ts
 * import { systemClock } from "@tessera/core";
 * import { storedFileCleanups } from "@tessera/records";
 * import { FilesystemObjectStorage } from "@tessera/records/filesystem-storage";
 *
 * declare function fileKeysOfEveryRow(): Promise<ReadonlySet<string>>; // from your tables
 *
 * const storage = new FilesystemObjectStorage("uploads");
 * for (const task of storedFileCleanups(storage, fileKeysOfEveryRow)) await task.run(systemClock());
 * ```
 */
export function storedFileCleanups(
  storage: ListableObjectStorage,
  referencedKeys: () => Promise<ReadonlySet<string>>,
  options: StoredFileCleanupOptions = {},
): CleanupTask[] {
  return [
    {
      name: "unreferenced-stored-files",
      run: async (now) => {
        const deleted = await sweepUnreferencedObjects(storage, await referencedKeys(), {
          now,
          ...(options.olderThanMs === undefined ? {} : { olderThanMs: options.olderThanMs }),
        });
        return { removed: deleted.length };
      },
    },
  ];
}
