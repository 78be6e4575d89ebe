import { MemoryMailer } from "@tessera/mail";
import { SqlOutbox } from "@tessera/outbox/sql";
import { SqlTrackedSessionStore } from "@tessera/session/sql";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { openAppDatabase } from "../../src/database.js";
import { appMigrations } from "../../src/migrations.js";
import { appOutboundWebhooks } from "../../src/outbound.js";
import { createRenderJobs } from "../../src/render-jobs.js";
import { openAppStorage } from "../../src/storage.js";

/**
 * Every route the app mounts with `environment`, as `METHOD /path` (`POST /api/posts/:id`): the
 * app built as `startServer` builds it, on an in-memory database, without listening. Without a
 * mailer (as production without mail settings); with `withMailer`, a memory mailer and the
 * outbound webhooks, as the test servers have: every route the app can mount.
 */
export async function appRoutes(
  environment: Record<string, string>,
  options: { readonly withMailer?: boolean } = {},
): Promise<string[]> {
  const config = loadConfig({ PORT: "0", DATABASE_PATH: ":memory:", ...environment });
  const secretKeyBase = "routes-secret-".repeat(5);
  const database = await openAppDatabase(config, appMigrations);
  try {
    const outbox = new SqlOutbox(database);
    const app = createApp({
      config,
      secretKeyBase,
      database,
      mailer: options.withMailer ? new MemoryMailer() : undefined,
      ...(options.withMailer
        ? { outbound: appOutboundWebhooks({ database, outbox, config, secretKeyBase }) }
        : {}),
      renderJobs: createRenderJobs(database, config, secretKeyBase),
      trackedSessions: config.trackedSessions ? new SqlTrackedSessionStore(database) : undefined,
      storage: await openAppStorage(config),
    });
    // Middleware (`ALL /*`, `ALL /api/*`...) is not a route of its own.
    const routes = app.routes.filter((route) => route.method !== "ALL");
    return [...new Set(routes.map((route) => `${route.method} ${route.path}`))];
  } finally {
    await database.close();
  }
}
