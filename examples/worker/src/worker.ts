// The Tessera service on Cloudflare Workers: the same service as examples/app (its wiring is
// reused as it is), on D1 for data, R2 for attachments, the rate-limiting binding for sign-in
// attempts, the send_email binding or an HTTP provider for mail, and a cron trigger for the
// render-job sweep, the cleanups and mail retries. Settings are the Node app's, read from the
// Worker's variables and secrets.

import { sqlTokenMailTransaction } from "@tessera/accounts/sql";
import { jsonError } from "@tessera/http";
import type { SendEmailBinding } from "@tessera/mail/cloudflare";
import { mailSender, outboxMailer } from "@tessera/mail/outbox";
import type { OutboxRunner } from "@tessera/outbox";
import { SqlOutbox } from "@tessera/outbox/sql";
import { bindingRateLimiter, type RateLimitBinding } from "@tessera/ratelimit";
import { type R2Bucket, R2ObjectStorage } from "@tessera/records";
import { SqlTrackedSessionStore } from "@tessera/session/sql";
import { applyMigrations, type D1Connection, d1Database } from "@tessera/sqlite/d1";
import { Hono } from "hono";
import type { AppHono } from "../../app/src/accounts.js";
import { runCleanups, webhookRetentionMs } from "../../app/src/cleanups.js";
import {
  type AppConfig,
  ConfigError,
  checkedSecretKeyBase,
  loadConfig,
} from "../../app/src/config.js";
import { appMigrations } from "../../app/src/migrations.js";
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
   * a mail sends the queue a message and the `queue` handler delivers the mail, in an
   * invocation of its own that the queue retries; without it, `waitUntil` delivers it.
   */
  readonly OUTBOX_QUEUE?: OutboxQueue;
  readonly [setting: string]: unknown;
}

/** What the Worker uses of a Queues producer binding. */
interface OutboxQueue {
  send(body: { readonly outbox: string }): Promise<void>;
}

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
  /** True once since the last call when a request stored a mail: time to deliver it. */
  readonly takeMailWaiting: () => boolean;
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
  const mailOutbox = new SqlOutbox(database);
  let mailWaiting = false;
  mailOutbox.onEnqueue(() => {
    mailWaiting = true;
  });
  const takeMailWaiting = () => {
    const waiting = mailWaiting;
    mailWaiting = false;
    return waiting;
  };
  const app: AppHono = new Hono();
  mountService(app, {
    config,
    secretKeyBase,
    database,
    mailer: transport && outboxMailer({ outbox: mailOutbox, writer: database }),
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
  return { app, config, database, secretKeyBase, mailSender: sender, takeMailWaiting };
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
function reportMailDrainFailure(error: unknown): undefined {
  console.error(`The mail sender failed: ${(error as Error).message}`);
  return undefined;
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
    if (running.mailSender && running.takeMailWaiting()) {
      // The message says only "mail is waiting": the consumer delivers whatever is due.
      const delivering = env.OUTBOX_QUEUE
        ? env.OUTBOX_QUEUE.send({ outbox: "mail" })
        : running.mailSender.drain();
      context.waitUntil(delivering.catch(reportMailDrainFailure));
    }
    return response;
  },

  /**
   * The consumer of `OUTBOX_QUEUE`: delivers the mails due. A drain that fails (D1 unreachable)
   * throws, so the queue hands the batch again later; the cron trigger is the backstop.
   */
  async queue(batch: QueueBatch, env: WorkerEnv): Promise<void> {
    const { mailSender: sender } = await service(env);
    if (sender) {
      const mail = await sender.drain();
      console.log(
        `Queue: mail ${mail.delivered} sent, ${mail.retried} to retry, ${mail.failed} failed.`,
      );
    }
    batch.ackAll();
  },

  /** The cron trigger: the mails due, one render-job sweep and one cleanup round. */
  async scheduled(_controller: unknown, env: WorkerEnv): Promise<void> {
    const { config, database, secretKeyBase, mailSender: sender } = await service(env);
    const mail = sender ? await sender.drain().catch(reportMailDrainFailure) : undefined;
    const jobs = createRenderJobs(database, config, secretKeyBase);
    const report = jobs ? await jobs.runner.sweep() : undefined;
    const cleaned = await runCleanups({
      database,
      trackedSessions: config.trackedSessions ? new SqlTrackedSessionStore(database) : undefined,
      webhookRetentionMs: webhookRetentionMs(config),
    });
    const deleted = Object.entries(cleaned).map(
      ([task, removed]) => `${removed} ${task.replaceAll("-", " ")}`,
    );
    const mails = mail
      ? `mail ${mail.delivered} sent, ${mail.retried} to retry, ${mail.failed} failed; `
      : "";
    console.log(
      `Scheduled: ${mails}${report ? `${report.retried.length} render jobs retried, ${report.exhausted.length + report.stale.length} failed; ` : ""}${deleted.join(", ")} deleted.`,
    );
  },
};
