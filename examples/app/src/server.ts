import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { serve } from "@hono/node-server";
import type { Clock } from "@tessera/crypto";
import { scheduleSweeps } from "@tessera/jobs";
import type { Mailer } from "@tessera/mail";
import { MemoryObjectStorage } from "@tessera/records";
import { FilesystemObjectStorage } from "@tessera/records/filesystem-storage";
import { deleteExpiredTrackedSessions } from "@tessera/session";
import { SqliteTrackedSessionStore } from "@tessera/sqlite";
import { createApp } from "./app.js";
import type { AppConfig } from "./config.js";
import { openAppDatabase } from "./database.js";
import { createAppMailer } from "./mailer.js";
import { appMigrations } from "./migrations.js";
import { createRenderJobs } from "./render-jobs.js";
import { resolveSecretKeyBase } from "./secret-key-base.js";
import { startWebhookRetention } from "./webhook-retention.js";

/** A running example app: its address and a way to stop it. */
export interface RunningServer {
  /** Base address, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  /** Stops taking requests, ends open connections and closes the database. */
  close(): Promise<void>;
}

/**
 * Opens the database (applying migrations), builds the app and listens. `mailer` replaces the
 * one `MAIL_ADAPTER` names (tests pass a MemoryMailer); `clock` replaces the system clock.
 * @throws {ConfigError} for unusable settings, before anything listens.
 */
export async function startServer(
  config: AppConfig,
  options: { readonly mailer?: Mailer; readonly clock?: Clock } = {},
): Promise<RunningServer> {
  const secretKeyBase = resolveSecretKeyBase(config);
  const database = await openAppDatabase(config.databasePath, appMigrations);
  const mailer = options.mailer ?? createAppMailer(config);
  const renderJobs = createRenderJobs(database, config, secretKeyBase, options.clock);
  const storage =
    config.databasePath === ":memory:" && config.uploadsPath === undefined
      ? new MemoryObjectStorage()
      : new FilesystemObjectStorage(
          config.uploadsPath ?? join(dirname(config.databasePath), "uploads"),
        );
  const trackedSessions = config.trackedSessions
    ? new SqliteTrackedSessionStore(database)
    : undefined;
  const app = createApp({
    config,
    secretKeyBase,
    database,
    mailer,
    renderJobs,
    trackedSessions,
    storage,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const listening = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
      resolve(listening),
    );
    listening.once("error", reject);
  });
  const stopSweeps = renderJobs
    ? scheduleSweeps(renderJobs.runner.sweep, {
        intervalMs: config.sweepIntervalSeconds * 1000,
        onError: (error) =>
          console.error(`The render job sweep failed: ${(error as Error).message}`),
      })
    : () => {};
  // Expired device rows are never read again; clear them out hourly.
  const cleanup = trackedSessions
    ? setInterval(() => {
        deleteExpiredTrackedSessions(trackedSessions, Date.now()).catch((error: unknown) =>
          console.error(`Could not delete expired sessions: ${(error as Error).message}`),
        );
      }, 3_600_000).unref()
    : undefined;
  const stopWebhookRetention = startWebhookRetention(database, config);
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        stopSweeps();
        clearInterval(cleanup);
        stopWebhookRetention?.();
        server.close(() => {
          database.close();
          resolve();
        });
        // Idle keep-alive connections would otherwise hold close() open.
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
}
