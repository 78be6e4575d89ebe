// The Tessera service on Cloudflare Workers: the same service as examples/app (its wiring is
// reused as it is), on D1 for data, R2 for attachments, the rate-limiting binding for sign-in
// attempts, the send_email binding or an HTTP provider for mail, and a cron trigger for the
// render-job sweep, the cleanups, and mail and webhook retries. Settings are the Node app's, read from the
// Worker's variables and secrets.

import { SqlUserStore, sqlTokenMailTransaction } from "@tessera/accounts/sql";
import { StaticPathRouter } from "@tessera/hono";
import { jsonError } from "@tessera/http";
import type { SendEmailBinding } from "@tessera/mail/cloudflare";
import { MAIL_QUEUE, mailSender, outboxMailer } from "@tessera/mail/outbox";
import { guardedFetch, WEBHOOK_QUEUE } from "@tessera/outbound";
import type { DrainReport, OutboxRunner } from "@tessera/outbox";
import { SqlOutbox } from "@tessera/outbox/sql";
import { bindingRateLimiter, type RateLimitBinding } from "@tessera/ratelimit";
import { type R2Bucket, R2ObjectStorage } from "@tessera/records";
import { SqlTrackedSessionStore } from "@tessera/session/sql";
import { applyMigrations, type D1Connection, d1Database } from "@tessera/sqlite/d1";
import { Hono } from "hono";
import type { AppHono } from "../../app/src/accounts.js";
import { appBreachedPasswords } from "../../app/src/breached-passwords.js";
import { outboundRetentionMs, runCleanups, webhookRetentionMs } from "../../app/src/cleanups.js";
import {
  type AppConfig,
  ConfigError,
  checkedSecretKeyBase,
  loadConfig,
} from "../../app/src/config.js";
import { appJwtKeys } from "../../app/src/jwt-keys.js";
import { appMigrations } from "../../app/src/migrations.js";
import { appOutboundWebhooks, appWebhookSender, outboundPolicy } from "../../app/src/outbound.js";
import { createRenderJobs } from "../../app/src/render-jobs.js";
import { mountService } from "../../app/src/service.js";
import { createWorkerMailer } from "./worker-mailer.js";

/** The Worker's bindings (wrangler.json) and its variables, the Node app's settings. */
export interface WorkerEnv {
  readonly DB: D1Connection;
  readonly FILES: R2Bucket;
  /** Optional: without it, attempts are counted in D1 like on Node. */
  readonly AUTH_RATE_LIMITER?: RateLimitBinding;
  /** Optional: the `send_email` binding, for `MAIL_ADAPTER=cloudflare`. */
  readonly EMAIL?: SendEmailBinding;
  /**
   * Optional: a Queues producer whose consumer is this Worker. With it, a request that stored
   * a mail or a webhook event sends the queue a message and the `queue` handler delivers it, in
   * an invocation of its own that the queue retries; without it, `waitUntil` delivers it.
   */
  readonly OUTBOX_QUEUE?: OutboxQueue;
  readonly [setting: string]: unknown;
}

/** What the Worker uses of a Queues producer binding. */
interface OutboxQueue {
  send(body: { readonly outbox: OutboxQueueName }): Promise<void>;
}

/** The outbox queues a request can leave waiting: mails, and users' webhook deliveries. */
type OutboxQueueName = typeof MAIL_QUEUE | typeof WEBHOOK_QUEUE;

/** What the Worker uses of a batch a queue hands its consumer. */
interface QueueBatch {
  ackAll(): void;
}

/** The binding's configuration in wrangler.json: the spec's 10 attempts per minute. */
const AUTH_RATE_LIMIT = { limit: 10, periodSeconds: 60 } as const;

/**
 * Cloudflare's WebCrypto refuses PBKDF2 above 100,000 iterations: a stored digest above it (a
 * Django app's 600,000) is verified in pure JS within @tessera/password's CPU budget, and new
 * digests stay at 100,000. The package assumes this on Workers anyway; said here so it shows.
 */
const PASSWORDS = { maximumNativeIterations: 100_000 } as const;

/** The service of one isolate: built on its first request, migrations applied once. */
interface Service {
  readonly app: AppHono;
  readonly config: AppConfig;
  readonly database: ReturnType<typeof d1Database>;
  readonly secretKeyBase: string;
  /** Delivers the mails due in the outbox, when the Worker sends mail. */
  readonly mailSender: OutboxRunner | undefined;
  /** Delivers users' webhook events due in the outbox. */
  readonly webhookSender: OutboxRunner;
  /**
   * The outbox queues a request stored something in since the last call (and forgets them):
   * what to deliver after the answer.
   */
  readonly takeWaiting: () => OutboxQueueName[];
}

/** What the Worker uses of the handler's execution context. */
interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

let started: Promise<Service> | undefined;

function service(env: WorkerEnv): Promise<Service> {
  started ??= startService(env).catch((error: unknown) => {
    // A failed start (a missing secret, D1 unreachable) is tried again by the next request.
    started = undefined;
    throw error;
  });
  return started;
}

async function startService(env: WorkerEnv): Promise<Service> {
  const config = loadConfig(settingsOf(env));
  if (config.secretKeyBase === undefined) {
    throw new ConfigError("SECRET_KEY_BASE is required: set it as a secret of the Worker");
  }
  const secretKeyBase = checkedSecretKeyBase(config.secretKeyBase);
  const transport = createWorkerMailer(config, env.EMAIL);
  const database = d1Database(env.DB);
  await applyMigrations(database, appMigrations);
  // Mail goes through the outbox in D1, as on Node: a request stores it (with its token, in one
  // transaction) and answers; the mail is delivered after the answer, and whatever a killed
  // isolate or a provider outage left is retried by the cron trigger.
  // Users' webhook events wait in the same outbox (queue `webhook`), written in the transaction
  // of the note change they tell of, and are delivered the same ways.
  const mailOutbox = new SqlOutbox(database);
  const waiting = new Set<OutboxQueueName>();
  mailOutbox.onEnqueue((queue) => {
    if (queue === MAIL_QUEUE || queue === WEBHOOK_QUEUE) waiting.add(queue);
  });
  const takeWaiting = () => {
    const queues = [...waiting];
    waiting.clear();
    return queues;
  };
  const mailer = transport && outboxMailer({ outbox: mailOutbox, writer: database });
  // No resolveHost: deployed, a Worker's fetch cannot reach private networks, so the URL's own
  // check is the guard here (the main entry's guardedFetch; the Node one needs node:net).
  // Locally, miniflare's workerd can: the tests reach their doubles on 127.0.0.1.
  const outbound = appOutboundWebhooks({ database, outbox: mailOutbox, config, secretKeyBase });
  const webhookSender = appWebhookSender({
    database,
    outbox: mailOutbox,
    config,
    secretKeyBase,
    fetch: guardedFetch(outboundPolicy(config)),
    mailer,
    findUser: (id) => new SqlUserStore(database).findById(id),
  });
  // Static paths (/api/health, /api/auth/me) are matched from memory (see StaticPathRouter).
  const app: AppHono = new Hono({ router: new StaticPathRouter() });
  // EdDSA/ES256 keys in D1, sealed under the secret, signed and verified with WebCrypto.
  const jwtKeys = await appJwtKeys(config, database, secretKeyBase);
  mountService(app, {
    config,
    secretKeyBase,
    database,
    jwtKeys,
    mailer,
    outbound,
    ...(transport
      ? {
          tokenMailTransaction: sqlTokenMailTransaction(database, (writer) =>
            outboxMailer({ outbox: mailOutbox, writer }),
          ),
        }
      : {}),
    trackedSessions: config.trackedSessions ? new SqlTrackedSessionStore(database) : undefined,
    storage: new R2ObjectStorage(env.FILES),
    renderJobs: createRenderJobs(database, config, secretKeyBase),
    ...(env.AUTH_RATE_LIMITER
      ? { rateLimiter: bindingRateLimiter(env.AUTH_RATE_LIMITER, AUTH_RATE_LIMIT) }
      : {}),
    passwords: PASSWORDS,
    // New passwords are looked up through the same guard as webhooks (no resolveHost here).
    breachedPasswords: appBreachedPasswords(config, (limits) =>
      guardedFetch({ ...outboundPolicy(config), ...limits }),
    ),
    // Cloudflare puts the client's address in this header; the client cannot set it. (Hono's
    // `hono/cloudflare-workers` getConnInfo reads the same, but that entry is deprecated.)
    getConnInfo: (context) => {
      const address = context.req.header("cf-connecting-ip");
      return { remote: address === undefined ? {} : { address, addressType: undefined } };
    },
  });
  const sender =
    transport &&
    mailSender({
      outbox: mailOutbox,
      transport,
      onError: (error) => console.error(`The mail sender failed: ${(error as Error).message}`),
    });
  return { app, config, database, secretKeyBase, mailSender: sender, webhookSender, takeWaiting };
}

/** The text settings among the Worker's bindings (the objects are D1, R2 and the limiter). */
function settingsOf(env: WorkerEnv): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/**
 * A drain (or a queue message) that failed, D1 or the queue unreachable, is logged; what was
 * due stays due for the next drain: the cron trigger's at the latest.
 */
function reportDrainFailure(queue: OutboxQueueName) {
  const sender = queue === MAIL_QUEUE ? "mail" : "webhook";
  return (error: unknown): undefined => {
    console.error(`The ${sender} sender failed: ${(error as Error).message}`);
    return undefined;
  };
}

/** The runner of `queue`, if this Worker delivers it (mail only with a mail setting). */
function senderOf(running: Service, queue: OutboxQueueName): OutboxRunner | undefined {
  return queue === MAIL_QUEUE ? running.mailSender : running.webhookSender;
}

/** A drain's counts as the log lines say them, e.g. `webhooks 3 sent, 0 to retry, 0 failed`. */
function drainSummary(what: string, report: DrainReport): string {
  return `${what} ${report.delivered} sent, ${report.retried} to retry, ${report.failed} failed`;
}

/** The 500 of a Worker that cannot start, naming the setting (never a secret's value). */
function startFailure(error: unknown): Response {
  const message =
    error instanceof ConfigError ? `Cannot start: ${error.message}` : "Internal server error";
  console.error(error instanceof ConfigError ? message : error);
  return jsonError(500, message);
}

export default {
  async fetch(request: Request, env: WorkerEnv, context: ExecutionContext): Promise<Response> {
    let running: Service;
    try {
      running = await service(env);
    } catch (error) {
      return startFailure(error);
    }
    const response = await running.app.fetch(request, env, context as never);
    // workerd cancels what is left running once the answer is out, unless handed to waitUntil.
    for (const queue of running.takeWaiting()) {
      const sender = senderOf(running, queue);
      if (!sender) continue;
      // The message says only "something is waiting": the consumer delivers whatever is due.
      const delivering = env.OUTBOX_QUEUE
        ? env.OUTBOX_QUEUE.send({ outbox: queue })
        : sender.drain();
      context.waitUntil(delivering.catch(reportDrainFailure(queue)));
    }
    return response;
  },

  /**
   * The consumer of `OUTBOX_QUEUE`: delivers the mails and webhook events due, whichever queue
   * the messages named (a drain with nothing due is one query). A drain that fails (D1
   * unreachable) throws, so the queue hands the batch again later; the cron trigger is the
   * backstop.
   */
  async queue(batch: QueueBatch, env: WorkerEnv): Promise<void> {
    const { mailSender, webhookSender } = await service(env);
    const [mail, webhooks] = await Promise.all([mailSender?.drain(), webhookSender.drain()]);
    const done = [
      ...(mail ? [drainSummary("mail", mail)] : []),
      drainSummary("webhooks", webhooks),
    ];
    console.log(`Queue: ${done.join("; ")}.`);
    batch.ackAll();
  },

  /**
   * The cron trigger: the mails and webhook events due, one render-job sweep and one cleanup
   * round.
   */
  async scheduled(_controller: unknown, env: WorkerEnv): Promise<void> {
    const { config, database, secretKeyBase, mailSender, webhookSender } = await service(env);
    const [mail, webhooks] = await Promise.all([
      mailSender?.drain().catch(reportDrainFailure(MAIL_QUEUE)),
      webhookSender.drain().catch(reportDrainFailure(WEBHOOK_QUEUE)),
    ]);
    const jobs = createRenderJobs(database, config, secretKeyBase);
    const report = jobs ? await jobs.runner.sweep() : undefined;
    const cleaned = await runCleanups({
      database,
      trackedSessions: config.trackedSessions ? new SqlTrackedSessionStore(database) : undefined,
      webhookRetentionMs: webhookRetentionMs(config),
      auditRetentionDays: config.auditRetentionDays,
      outboundRetentionMs: outboundRetentionMs(config),
    });
    const deleted = Object.entries(cleaned).map(
      ([task, removed]) => `${removed} ${task.replaceAll("-", " ")}`,
    );
    const deliveries = [
      ...(mail ? [`${drainSummary("mail", mail)}; `] : []),
      ...(webhooks ? [`${drainSummary("webhooks", webhooks)}; `] : []),
    ].join("");
    console.log(
      `Scheduled: ${deliveries}${report ? `${report.retried.length} render jobs retried, ${report.exhausted.length + report.stale.length} failed; ` : ""}${deleted.join(", ")} deleted.`,
    );
  },
};
