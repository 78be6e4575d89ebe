import { type Clock, systemClock } from "@tessera/core";
import type { KeyRing } from "@tessera/crypto";
import { prepareRichText } from "@tessera/fields";
import { DEFAULT_MAXIMUM_BODY_BYTES } from "@tessera/http";
import { type CallbackHandler, createCallbackHandler } from "./callback-handler.js";
import { jobCallbackToken } from "./callback-token.js";
import type { CallbackVerifier } from "./callback-verifier.js";
import { createJobMover, type JobChangeHook } from "./job-change.js";
import type { JobDefinition, JobInput } from "./job-definition.js";
import {
  MAX_ATTEMPTS,
  RETRIES_PER_SWEEP,
  RETRY_AFTER_MS,
  STALE_AFTER_MS,
  SUBMISSION_TIMEOUT_MS,
} from "./job-limits.js";
import type { JobRecord, JobStore } from "./job-store.js";
import { submitJob } from "./submission.js";
import { type SweepReport, sweepJobs } from "./sweep.js";

/** Options of {@link createJobRunner}. */
export interface JobRunnerOptions {
  readonly definition: JobDefinition;
  /** A store for `definition`'s table (`new SqlJobStore(database, definition)`). */
  readonly store: JobStore;
  /** `<JOB>_URL`: where jobs are POSTed. */
  readonly url: string;
  /** `<JOB>_SECRET`: signs submissions (`X-Signature`). */
  readonly secret: string;
  /**
   * Checks signed callbacks: one it accepts needs no token. `signatureHeaderVerifier({ secret })`
   * of `@tessera/webhooks` checks an `X-Signature` the service makes with `<JOB>_SECRET`.
   * Without it a callback is authenticated by the token in its address alone, which every
   * callback address this runner hands out carries.
   */
  readonly verifySignature?: CallbackVerifier | undefined;
  /** `<JOB>_TOKEN`: sent as `Authorization: Bearer <token>` when set and not empty. */
  readonly bearerToken?: string | undefined;
  /** `APP_URL`: the public origin the service calls back. */
  readonly appUrl: string;
  /** From {@link jobTokenKeys}: makes and checks the per-job callback tokens. */
  readonly tokenKeys: KeyRing;
  /** Runs after every change; see {@link JobChangeHook}. */
  readonly onChange?: JobChangeHook | undefined;
  readonly clock?: Clock | undefined;
  /** The fetch submissions use (default `globalThis.fetch`). */
  readonly fetch?: ((request: Request) => Promise<Response>) | undefined;
  /** One submission, answer included (default 10 000 ms); must be below `retryAfterMs`. */
  readonly timeoutMs?: number | undefined;
  /** Default 3. */
  readonly maxAttempts?: number | undefined;
  /** Default 60 000 ms. */
  readonly retryAfterMs?: number | undefined;
  /** Default 3 600 000 ms. */
  readonly staleAfterMs?: number | undefined;
  /** Queued jobs retried per sweep (default 10). */
  readonly retriesPerSweep?: number | undefined;
  /** Jobs failed per kind (stale, exhausted) per sweep (default 100). */
  readonly failuresPerSweep?: number | undefined;
  /** Larger callback bodies are answered 413 (default 1 MiB). */
  readonly maxBodyBytes?: number | undefined;
}

/** One kind of external job, wired: start, callback route, sweep. */
export interface JobRunner {
  readonly definition: JobDefinition;
  /**
   * Inserts the job (`queued`, attempt 1) and submits it; resolves once the service answered
   * or the attempt failed, with the job as then stored (`submitted`, or `queued` with `error`).
   * @throws {TypeError} when `input` does not fit the definition: decode it with
   * `definition.decodeInput` first.
   */
  start(userId: number, input: JobInput): Promise<JobRecord>;
  /** `POST /webhooks/<job>/<id>`: pass the request and the `<id>` path segment. */
  handleCallback: CallbackHandler;
  /** One sweep run: fails stale and exhausted jobs, retries queued ones. */
  sweep(): Promise<SweepReport>;
  /** The callback address the service was given for a job (it holds the job's token). */
  callbackUrl(job: JobRecord): string;
}

/**
 * Wires a job definition to its store, its remote service and its callback route.
 * @throws {RangeError} for unusable settings: an empty or padded secret, an `appUrl` or `url`
 * that is not an absolute http(s) URL, or a timeout not below the retry age (a retry could then
 * overlap an attempt still in flight).
 *
 * @example
 * ```ts
 * import { createJobRunner, defineJob, jobTokenKeys } from "@tessera/jobs";
 * import { SqlJobStore } from "@tessera/jobs/sql";
 * import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
 * import { signatureHeaderVerifier } from "@tessera/webhooks";
 *
 * const render = defineJob("render", ["prompt:text"]);
 * const secret = process.env.RENDER_SECRET!;
 * const renders = createJobRunner({
 *   definition: render,
 *   store: new SqlJobStore(openSqliteFile("data/app.db"), render),
 *   url: "https://render.example/jobs", // the service the job is handed to
 *   secret, // signs the submission
 *   verifySignature: signatureHeaderVerifier({ secret }), // checks signed callbacks
 *   appUrl: "https://app.example", // callbacks come to /webhooks/render/:id
 *   tokenKeys: jobTokenKeys({ current: process.env.SECRET_KEY_BASE! }),
 * });
 * ```
 */
export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { definition, store } = options;
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? SUBMISSION_TIMEOUT_MS;
  const retryAfterMs = options.retryAfterMs ?? RETRY_AFTER_MS;
  if (!(timeoutMs > 0 && timeoutMs < retryAfterMs)) {
    throw new RangeError("the submission timeout must be positive and below the retry age");
  }
  requireSecret(options.secret, `${definition.name.toUpperCase()}_SECRET`);
  const url = httpUrl(options.url, `${definition.name.toUpperCase()}_URL`);
  const appUrl = httpUrl(options.appUrl, "APP_URL").href.replace(/\/+$/, "");
  const move = createJobMover(store, clock, options.onChange);
  const target = {
    url: url.href,
    secret: options.secret,
    bearerToken: options.bearerToken,
    urlName: `${definition.name.toUpperCase()}_URL`,
    timeoutMs,
    fetch: options.fetch,
  };

  const callbackUrl = (job: JobRecord): string => {
    const token = jobCallbackToken(options.tokenKeys.current, definition.name, job);
    return `${appUrl}/webhooks/${definition.name}/${job.id}?token=${token}`;
  };

  const submit = async (job: JobRecord) => {
    const body = { id: job.id, input: job.input, webhook: callbackUrl(job) };
    return (await move(job, await submitJob(target, body), "submission")).job;
  };

  const handleCallback = createCallbackHandler({
    jobName: definition.name,
    store,
    verifySignature: options.verifySignature,
    tokenKeys: options.tokenKeys,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAXIMUM_BODY_BYTES,
    move,
  });

  return {
    definition,
    callbackUrl,
    handleCallback,
    async start(userId, input) {
      const richText = await prepareRichText(definition.inputs, input);
      const decoded = definition.decodeInput(input, richText);
      if (!decoded.ok) {
        const detail = decoded.status === 400 ? decoded.message : JSON.stringify(decoded.fields);
        throw new TypeError(`invalid input for job ${definition.name}: ${detail}`);
      }
      const job = await store.create({ userId, input: decoded.value, now: clock() });
      await options.onChange?.({ cause: "start", job, previous: undefined });
      return (await submit(job)) ?? job;
    },
    sweep: () =>
      sweepJobs({
        store,
        clock,
        move,
        submit,
        maxAttempts: options.maxAttempts ?? MAX_ATTEMPTS,
        retryAfterMs,
        staleAfterMs: options.staleAfterMs ?? STALE_AFTER_MS,
        retriesPerSweep: options.retriesPerSweep ?? RETRIES_PER_SWEEP,
        failuresPerSweep: options.failuresPerSweep ?? 100,
      }),
  };
}

/**
 * Refuses a secret no signature should be made with: empty, or with whitespace around it
 * (almost always a stray newline from an env file, which the service's copy lacks).
 */
function requireSecret(secret: string, name: string): void {
  if (secret.length === 0) throw new RangeError(`${name} must not be empty`);
  if (secret.trim() !== secret) {
    throw new RangeError(`${name} must not start or end with whitespace`);
  }
}

function httpUrl(text: string, name: string): URL {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url?.protocol !== "http:" && url?.protocol !== "https:") {
    throw new RangeError(`${name} must be an absolute http or https URL`);
  }
  return url;
}
