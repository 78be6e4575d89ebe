import { systemClock } from "@tessera/core";
import { storedFileCleanups } from "@tessera/records";
import { FilesystemObjectStorage } from "@tessera/records/filesystem-storage";
import { ConfigError, loadConfig } from "./config.js";
import { openAppDatabase } from "./database.js";
import { appMigrations } from "./migrations.js";
import { referencedFileKeys } from "./records.js";
import { uploadsFolder } from "./storage.js";

// `npm run sweep-files -w examples/app`: deletes the stored files no record references (older
// than an hour, so uploads whose row is still being written stay) and the partial uploads a
// crash left, then exits (for cron).
try {
  const config = loadConfig(process.env);
  const folder = uploadsFolder(config);
  if (folder === undefined) {
    throw new ConfigError("an in-memory database keeps its files in memory: set UPLOADS_PATH");
  }
  const database = await openAppDatabase(config, appMigrations);
  try {
    const storage = new FilesystemObjectStorage(folder);
    const partials = await storage.removeAbandonedPartials();
    let unreferenced = 0;
    for (const task of storedFileCleanups(storage, () => referencedFileKeys(database))) {
      unreferenced += (await task.run(systemClock())).removed;
    }
    console.log(
      `Swept stored files: ${unreferenced} unreferenced file(s) and ${partials.length} partial upload(s) deleted.`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Cannot sweep files: ${error.message}`);
  process.exitCode = 1;
}
