import { dirname, join } from "node:path";
import { MemoryObjectStorage, type ObjectStorage } from "@tessera/records";
import { FilesystemObjectStorage } from "@tessera/records/filesystem-storage";
import type { AppConfig } from "./config.js";

/**
 * The folder of uploaded files: `UPLOADS_PATH`, else `uploads` beside the database file;
 * undefined for an in-memory database without `UPLOADS_PATH` (files then live in memory).
 */
export function uploadsFolder(config: AppConfig): string | undefined {
  if (config.uploadsPath !== undefined) return config.uploadsPath;
  return config.databasePath === ":memory:"
    ? undefined
    : join(dirname(config.databasePath), "uploads");
}

/**
 * The app's object storage. Opening the folder removes the partial uploads a crash left there
 * (those not written to for a minute: another process may be writing a fresh one).
 */
export async function openAppStorage(config: AppConfig): Promise<ObjectStorage> {
  const folder = uploadsFolder(config);
  return folder === undefined ? new MemoryObjectStorage() : FilesystemObjectStorage.open(folder);
}
