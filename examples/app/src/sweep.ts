import { ConfigError, loadConfig } from "./config.js";
import { openAppDatabase } from "./database.js";
import { appMigrations } from "./migrations.js";
import { createRenderJobs, missingRenderSettings } from "./render-jobs.js";
import { resolveSecretKeyBase } from "./secret-key-base.js";

// `npm run sweep -w examples/app`: one sweep of the render jobs, then exit (for cron).
try {
  const config = loadConfig(process.env);
  const secretKeyBase = resolveSecretKeyBase(config);
  const database = await openAppDatabase(config, appMigrations);
  try {
    const jobs = createRenderJobs(database, config, secretKeyBase);
    if (!jobs) {
      throw new ConfigError(`set ${missingRenderSettings(config).join(", ")} to sweep render jobs`);
    }
    const report = await jobs.runner.sweep();
    console.log(
      `Swept render jobs: ${report.retried.length} retried (${report.submitted.length} accepted), ${report.exhausted.length} failed after the last attempt, ${report.stale.length} failed as stale.`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Cannot sweep: ${error.message}`);
  process.exitCode = 1;
}
