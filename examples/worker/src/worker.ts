// The Tessera service on Cloudflare Workers: the same service as examples/app (its wiring is
// reused as it is), on D1 for data, R2 for attachments, the rate-limiting binding for sign-in
// attempts, the send_email binding or an HTTP provider for mail, and a cron trigger for the
// render-job sweep and the cleanups. Settings are the Node app's, read from the Worker's
// variables and secrets.

import { jsonError } from "@tessera/http";
import type { SendEmailBinding } from "@tessera/mail/cloudflare";
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
import { type TrackedMailer, trackSends } from "./sends-in-flight.js";
import { createWorkerMailer } from "./worker-mailer.js";

/** The Worker's bindings (wrangler.json) and its variables, the Node app's settings. */
export interface WorkerEnv {
  readonly DB: D1Connection;
  readonly FILES: R2Bucket;
  /** Optional: without it, attempts are counted in D1 like on Node. */
  readonly AUTH_RATE_LIMITER?: RateLimitBinding;
  /** Optional: the `send_email` binding, for `MAIL_ADAPTER=cloudflare`. */
  readonly EMAIL?: SendEmailBinding;
  readonly [setting: string]: unknown;
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
  /** The mailer, when there is one: its sends in flight outlive the answer through waitUntil. */
  readonly mailer: TrackedMailer | undefined;
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
  const created = createWorkerMailer(config, env.EMAIL);
  const mailer = created === undefined ? undefined : trackSends(created);
  const database = d1Database(env.DB);
  await applyMigrations(database, appMigrations);
  const app: AppHono = new Hono();
  mountService(app, {
    config,
    secretKeyBase,
    database,
    mailer,
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
  return { app, config, database, secretKeyBase, mailer };
}

/** The text settings among the Worker's bindings (the objects are D1, R2 and the limiter). */
function settingsOf(env: WorkerEnv): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
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
    const sending = running.mailer?.inFlight() ?? [];
    if (sending.length > 0) context.waitUntil(Promise.allSettled(sending));
    return response;
  },

  /** The cron trigger: one render-job sweep and one cleanup round. */
  async scheduled(_controller: unknown, env: WorkerEnv): Promise<void> {
    const { config, database, secretKeyBase } = await service(env);
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
    console.log(
      `Scheduled: ${report ? `${report.retried.length} render jobs retried, ${report.exhausted.length + report.stale.length} failed; ` : ""}${deleted.join(", ")} deleted.`,
    );
  },
};
