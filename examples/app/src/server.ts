import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CAPTCHA_TIMEOUT_MS } from "@tessera/accounts";
import { SqlUserStore, sqlTokenMailTransaction } from "@tessera/accounts/sql";
import { type Clock, scheduleRepeating } from "@tessera/core";
import { scheduleSweeps } from "@tessera/jobs";
import type { Mailer } from "@tessera/mail";
import { mailSender, outboxMailer } from "@tessera/mail/outbox";
import { settleUnreadBodies } from "@tessera/node";
import type { OutboundFetch, ResolveHost } from "@tessera/outbound";
import { nodeGuardedFetch, nodeResolveHost } from "@tessera/outbound/node";
import { SqlOutbox } from "@tessera/outbox/sql";
import { SqlTrackedSessionStore } from "@tessera/session/sql";
import { createApp } from "./app.js";
import { appBreachedPasswords } from "./breached-passwords.js";
import {
  CLEANUP_INTERVAL_MS,
  outboundRetentionMs,
  runCleanups,
  webhookRetentionMs,
} from "./cleanups.js";
import type { AppConfig } from "./config.js";
import { openAppDatabase } from "./database.js";
import { appJwtKeys } from "./jwt-keys.js";
import { createAppMailer } from "./mailer.js";
import { appMigrations } from "./migrations.js";
import { appOutboundWebhooks, appWebhookSender, outboundPolicy } from "./outbound.js";
import { PortInUseError } from "./port-in-use.js";
import { createRenderJobs } from "./render-jobs.js";
import { appRequestListener, SERVER_OPTIONS } from "./request-listener.js";
import { resolveSecretKeyBase } from "./secret-key-base.js";
import { openAppStorage } from "./storage.js";
import { answerUnparsableRequest } from "./unparsable-request.js";

/** A running example app: its address and a way to stop it. */
export interface RunningServer {
  /** Base address, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  /**
   * Delivers every mail due now and resolves when done (the sender does so by itself in the
   * background: tests call this instead of waiting). Nothing when no mailer is configured.
   */
  deliverMail(): Promise<void>;
  /**
   * Delivers every webhook due now (retries due now included) and resolves when done; the
   * sender does so by itself in the background, tests call this instead of waiting.
   */
  deliverWebhooks(): Promise<void>;
  /** Stops taking requests, ends open connections and closes the database. */
  close(): Promise<void>;
}

/**
 * Listens on `PORT` and `HOST`. A port another process holds is a setting that cannot be used:
 * a {@link PortInUseError} naming it, which `npm start` prints as one line.
 */
function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  config: AppConfig,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    // A form refused before it was read reaches the client: see settleUnreadBodies.
    const listener = appRequestListener(settleUnreadBodies(fetch), config.host);
    const listening = createServer(SERVER_OPTIONS, listener);
    // A request Node cannot parse reaches no route: answered in the envelope all the same.
    listening.on("clientError", answerUnparsableRequest);
    listening.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new PortInUseError(config.port) : error),
    );
    listening.listen(config.port, config.host, () => resolve(listening));
  });
}

/** What {@link startServer} takes beyond the settings. */
export interface StartOptions {
  /**
   * Replaces the mailer `MAIL_ADAPTER` names (tests pass a MemoryMailer): the transport the
   * outbox's sender hands mails to.
   */
  readonly mailer?: Mailer;
  /** Replaces the system clock. */
  readonly clock?: Clock;
  /**
   * Whether this process runs the job sweep and the cleanups (default true). With several
   * processes, one of them does, so there is one sweep at a time.
   */
  readonly backgroundTasks?: boolean;
  /**
   * Resolves the host of a webhook endpoint's URL at registration (default Node's DNS): tests
   * give a name that resolves to 127.0.0.1.
   */
  readonly resolveHost?: ResolveHost;
  /** Replaces the guarded request webhook deliveries go through (default `nodeGuardedFetch`). */
  readonly outboundFetch?: OutboundFetch;
}

/**
 * Opens the database (applying migrations), builds the app and listens.
 * @throws {ConfigError} for unusable settings (a port in use included); nothing then listens
 * and the database is closed again.
 */
export async function startServer(
  config: AppConfig,
  options: StartOptions = {},
): Promise<RunningServer> {
  const secretKeyBase = resolveSecretKeyBase(config);
  // The transport first: a mail setting it refuses stops the start before a database is open.
  const transport = options.mailer ?? createAppMailer(config);
  const database = await openAppDatabase(config, appMigrations);
  // Account mails are stored in the outbox, on the app's database, and a sender hands them to
  // the transport in the background: a request never waits on the mail server, and a mail the
  // server could not take yet is tried again, after a restart too.
  const mailOutbox = new SqlOutbox(database, options.clock ? { clock: options.clock } : {});
  const mailer = transport && outboxMailer({ outbox: mailOutbox, writer: database });
  // An emailed token and its mail are written in one transaction: both kept, or neither.
  const tokenMailTransaction =
    transport &&
    sqlTokenMailTransaction(database, (writer) => outboxMailer({ outbox: mailOutbox, writer }));
  const renderJobs = createRenderJobs(database, config, secretKeyBase, options.clock);
  // Users' webhook events wait in the same outbox (queue `webhook`), written in the transaction
  // of the record change they tell of. OUTBOUND_WEBHOOKS=off: none, nor their routes. On the
  // SQLite file (one connection per process) who is subscribed is kept in memory.
  const outbound = config.outboundWebhooks
    ? appOutboundWebhooks({
        database,
        outbox: mailOutbox,
        config,
        secretKeyBase,
        cacheSubscriptions: database.dialect === "sqlite",
        resolveHost: options.resolveHost ?? nodeResolveHost,
        ...(options.clock ? { clock: options.clock } : {}),
      })
    : undefined;
  const storage = await openAppStorage(config);
  const jwtKeys = await appJwtKeys(config, database, secretKeyBase, options.clock);
  const trackedSessions = config.trackedSessions ? new SqlTrackedSessionStore(database) : undefined;
  const app = createApp({
    config,
    secretKeyBase,
    database,
    mailer,
    ...(tokenMailTransaction ? { tokenMailTransaction } : {}),
    mailOutbox,
    ...(outbound ? { outbound } : {}),
    renderJobs,
    trackedSessions,
    storage,
    jwtKeys,
    ...(options.clock ? { clock: options.clock } : {}),
    // New passwords are looked up through the guard (OUTBOUND_ALLOW_HOSTS lets tests reach a
    // double on 127.0.0.1), within the check's 500 ms.
    breachedPasswords: appBreachedPasswords(config, (limits) =>
      nodeGuardedFetch({ ...outboundPolicy(config), ...limits }),
    ),
    // The captcha's verifications go through the guard too (OUTBOUND_ALLOW_HOSTS lets tests
    // reach a double on 127.0.0.1), within the captcha's own, shorter timeout.
    ...(config.captcha
      ? {
          captchaFetch: nodeGuardedFetch({
            ...outboundPolicy(config),
            timeoutMs: CAPTCHA_TIMEOUT_MS,
          }),
        }
      : {}),
  });
  const server = await listen(app.fetch, config).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  // Every process runs a sender, in a cluster too: each claim leases its mails to one sender.
  const sender =
    transport &&
    mailSender({
      outbox: mailOutbox,
      transport,
      ...(options.clock ? { clock: options.clock } : {}),
      onError: (error) => console.error(`The mail sender failed: ${(error as Error).message}`),
    });
  sender?.start();
  // Every process delivers webhooks too; the outbox's leases keep each attempt to one of them.
  const webhookDeliveries =
    outbound &&
    appWebhookSender({
      database,
      outbox: mailOutbox,
      config,
      secretKeyBase,
      fetch: options.outboundFetch ?? nodeGuardedFetch(outboundPolicy(config)),
      mailer,
      findUser: (id) => new SqlUserStore(database).findById(id),
      ...(options.clock ? { clock: options.clock } : {}),
    });
  webhookDeliveries?.start();
  const background = options.backgroundTasks ?? true;
  const stopSweeps =
    renderJobs && background
      ? scheduleSweeps(renderJobs.runner.sweep, {
          intervalMs: config.sweepIntervalSeconds * 1000,
          onError: (error) =>
            console.error(`The render job sweep failed: ${(error as Error).message}`),
        })
      : async () => {};
  // Expired device rows, ended rate-limit windows, processed webhook events and sent outbound
  // messages past their retention are never read again: cleared out at start and then every 10 minutes, in small
  // batches, never inside a request.
  const stopCleanups = background
    ? scheduleRepeating(
        () =>
          runCleanups(
            {
              database,
              trackedSessions,
              webhookRetentionMs: webhookRetentionMs(config),
              auditRetentionDays: config.auditRetentionDays,
              outboundRetentionMs: outboundRetentionMs(config),
            },
            options.clock,
          ),
        {
          intervalMs: CLEANUP_INTERVAL_MS,
          runAtStart: true,
          onError: (error) => console.error(`A cleanup failed: ${(error as Error).message}`),
        },
      )
    : async () => {};
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    deliverMail: async () => {
      await sender?.drain();
    },
    deliverWebhooks: async () => {
      await webhookDeliveries?.drain();
    },
    close: () =>
      new Promise<void>((resolve) => {
        // The database closes only after a sweep, cleanup round, mail or webhook delivery under
        // way has finished.
        const backgroundStopped = Promise.all([
          stopSweeps(),
          stopCleanups(),
          sender?.stop(),
          webhookDeliveries?.stop(),
        ]);
        server.close(async () => {
          await backgroundStopped;
          await database.close();
          resolve();
        });
        // Idle keep-alive connections would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
