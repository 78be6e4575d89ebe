import {
  type Clock,
  configurationError,
  requireFunctionOption,
  requireObjectOption,
  systemClock,
} from "@tessera/core";
import {
  type ErrorEnvelope,
  errorEnvelope,
  type HttpErrorCode,
  httpMessages,
  JSON_BODY_FAILURE_PREFIX,
  jsonAnswer,
  readBodyBytes,
  retryAfter,
} from "@tessera/http";
import { bodyBytes, type WebhookDelivery } from "./delivery.js";
import { bodyEventId, headerEventId, parseEventPayload, readEventId } from "./event-payload.js";
import type { WebhookEventStore } from "./event-store.js";
import { type PayloadSchema, validatePayload } from "./payload-schema.js";
import type { VerificationFailure, VerificationResult } from "./verifier.js";

/**
 * An event handed to the effect, after verification and claim. `Payload` is the output of the
 * `payload` schema when one is given, else `unknown`.
 */
export interface WebhookEvent<Payload = unknown> {
  readonly source: string;
  readonly id: string;
  /**
   * The parsed JSON body, as the `payload` schema gave it back when there is one. Without a
   * schema, validate it before use: a genuine sender can still send surprises.
   */
  readonly payload: Payload;
  /** The raw body as received. */
  readonly rawBody: string;
  /** 1 on the first run; more when a failed or abandoned run is retried. */
  readonly attempts: number;
  readonly delivery: WebhookDelivery;
}

/**
 * Options of {@link createWebhookProcessor}. `Payload` is inferred from the `payload` schema;
 * name it only together with one.
 */
export interface WebhookProcessorOptions<Payload = unknown> {
  /** Names the endpoint (`orders` for `/webhooks/orders`); event ids are unique per source. */
  readonly source: string;
  /** One of the `*Verifier` factories, or any function with the same contract. */
  readonly verify: (delivery: WebhookDelivery) => VerificationResult | Promise<VerificationResult>;
  readonly store: WebhookEventStore;
  /**
   * The work an event triggers. It may run again after a failure or a crash, so it must be
   * safe to repeat; a throw marks the event `failed` and answers 500.
   */
  readonly effect: (event: WebhookEvent<Payload>) => unknown;
  /**
   * A Standard Schema v1 (zod, valibot, ArkType, a `@tessera/fields` model's `create`) the
   * parsed body must pass once the signature verified; the effect receives its output. A body
   * it refuses is answered 400 with the issues, before the event is recorded: nothing is
   * claimed, so a sender that fixes its payload and retries is processed then.
   */
  readonly payload?: PayloadSchema<Payload> | undefined;
  /**
   * Reads the event id elsewhere than the default (the verifier's, `webhook-id` for Standard
   * Webhooks, else the body's `id`), for example GitHub's `X-GitHub-Delivery` header. Return a
   * string or number; null or undefined is answered 400 as a missing id.
   */
  readonly eventId?: ((payload: unknown, delivery: WebhookDelivery) => unknown) | undefined;
  /**
   * Reads the event id from this request header instead (GitHub: `X-GitHub-Delivery`). A
   * missing or empty header is answered 400 naming it. Give this or `eventId`, not both.
   */
  readonly eventIdHeader?: string | undefined;
  /** Larger bodies are refused with 413 before verification (default 1 MiB). */
  readonly maxBodyBytes?: number | undefined;
  /** A `processing` event untouched this long is taken over (default 300 000 ms). */
  readonly staleAfterMs?: number | undefined;
  /** The time source (default the system clock). */
  readonly clock?: Clock | undefined;
}

/**
 * What the processor decided, framework-neutral: send `body` as JSON with `status`. `detail`
 * is for logs only: the verification failure, the 400 reason or the effect's error message.
 */
export type WebhookOutcome =
  | {
      readonly status: 200;
      readonly body: { readonly status: "processed" | "duplicate" };
      readonly eventId: string;
    }
  | {
      readonly status: 409;
      readonly body: ErrorEnvelope;
      readonly eventId: string;
      /** Send as `Retry-After`: seconds until the live claim may be taken over (at least 1). */
      readonly retryAfterSeconds: number;
    }
  | { readonly status: 401; readonly body: ErrorEnvelope; readonly detail: VerificationFailure }
  | { readonly status: 400 | 413 | 500; readonly body: ErrorEnvelope; readonly detail: string };

/** A mounted webhook endpoint. */
export interface WebhookProcessor {
  /** `Request` in, `Response` out: mounts in any fetch-style framework or runtime. */
  handle(request: Request): Promise<Response>;
  /** The same steps for a body already read (Express raw body, Node headers). */
  process(delivery: WebhookDelivery): Promise<WebhookOutcome>;
}

/** Default cap on a webhook body: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The stale claim: an event `processing` for more than 5 minutes is taken over. */
export const DEFAULT_STALE_AFTER_MS = 5 * 60 * 1000;
/**
 * The `error.code`s a webhook endpoint answers with: `@tessera/http`'s, `invalid_signature` for a
 * delivery whose signature does not verify (401), `event_in_progress` for one that meets a live
 * claim of its event (409), and `effect_failed` when the effect threw (500): the sender retries.
 */
export type WebhookErrorCode =
  | HttpErrorCode
  | "invalid_signature"
  | "event_in_progress"
  | "effect_failed";

/** The 409 message of a delivery that meets a live claim of its event. */
export const EVENT_IN_PROGRESS_MESSAGE = "This event is being processed; retry later.";
/** Effect error messages are stored up to this many characters. */
const MAX_ERROR_LENGTH = 1000;

/**
 * Builds an inbound webhook endpoint that follows the processing rules of docs/webhooks-and-jobs.md: verify the raw
 * body (401), parse JSON and read the event id (400), validate it with the `payload` schema
 * when there is one (400), claim the event in one statement
 * (already processed → 200 `{"status":"duplicate"}`; still processing under a live claim →
 * 409 with `Retry-After`, never 2xx, so a sender whose first delivery died comes back), run the
 * effect, then mark it `processed` (200 `{"status":"processed"}`) or `failed` (500). Two store
 * writes per delivery. Store errors are not caught: they are broken infrastructure, not an
 * answer.
 */
export function createWebhookProcessor<Payload = unknown>(
  options: WebhookProcessorOptions<Payload>,
): WebhookProcessor {
  checkWebhookOptions(options);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const clock = options.clock ?? systemClock;
  if (options.eventId && options.eventIdHeader !== undefined) {
    throw new RangeError("give eventId or eventIdHeader, not both");
  }
  const eventIdHeader = options.eventIdHeader;

  async function processDelivery(delivery: WebhookDelivery): Promise<WebhookOutcome> {
    const body = bodyBytes(delivery.body);
    if (body.length > maxBodyBytes) return tooLarge(maxBodyBytes);
    const verification = await options.verify(delivery);
    if (!verification.ok) {
      return {
        status: 401,
        body: errorEnvelope(401, httpMessages.english["http.unauthenticated"], {
          code: "invalid_signature" satisfies WebhookErrorCode,
        }),
        detail: verification.reason,
      };
    }
    const payload = parseEventPayload(body);
    if (!payload.ok) return badRequest(payload.reason);
    const eventId =
      eventIdHeader !== undefined
        ? headerEventId(delivery, eventIdHeader)
        : options.eventId
          ? readEventId(options.eventId(payload.value.value, delivery) ?? undefined)
          : verification.value.eventId !== undefined
            ? readEventId(verification.value.eventId)
            : bodyEventId(payload.value.value);
    if (!eventId.ok) return badRequest(eventId.reason);
    // Without a schema the payload is handed over unknown, as `Payload` then defaults to.
    const validated = options.payload
      ? await validatePayload(options.payload, payload.value.value)
      : { ok: true as const, value: payload.value.value as Payload };
    if (!validated.ok) return badRequest(validated.reason);

    const now = clock();
    const claim = await options.store.claim({
      source: options.source,
      eventId: eventId.value,
      payload: payload.value.text,
      now,
      staleBefore: now - staleAfterMs,
    });
    if (!claim.claimed) {
      if (claim.status === "processed") {
        return { status: 200, body: { status: "duplicate" }, eventId: eventId.value };
      }
      return {
        status: 409,
        body: errorEnvelope(409, EVENT_IN_PROGRESS_MESSAGE, {
          code: "event_in_progress" satisfies WebhookErrorCode,
        }),
        eventId: eventId.value,
        retryAfterSeconds: secondsUntilStale(claim.updatedAt, staleAfterMs, now),
      };
    }

    const reference = { source: options.source, eventId: eventId.value, attempts: claim.attempts };
    try {
      await options.effect({
        source: options.source,
        id: eventId.value,
        payload: validated.value,
        rawBody: payload.value.text,
        attempts: claim.attempts,
        delivery,
      });
    } catch (error) {
      // An effect may quote the payload in its message: a NUL there would fail the mark on
      // PostgreSQL and leave the event claimed, so it is kept as U+FFFD.
      const message = (error instanceof Error ? error.message : String(error))
        .slice(0, MAX_ERROR_LENGTH)
        .replaceAll("\u0000", "\uFFFD");
      await options.store.markFailed({ ...reference, now: clock(), error: message });
      return {
        status: 500,
        body: errorEnvelope(500, "Webhook processing failed", {
          code: "effect_failed" satisfies WebhookErrorCode,
        }),
        detail: message,
      };
    }
    await options.store.markProcessed({ ...reference, now: clock() });
    return { status: 200, body: { status: "processed" }, eventId: eventId.value };
  }

  return {
    process: processDelivery,
    async handle(request) {
      const body = await readBodyBytes(request, maxBodyBytes);
      const outcome = body.ok
        ? await processDelivery({ headers: request.headers, body: body.value, url: request.url })
        : body.reason === "too-large"
          ? tooLarge(maxBodyBytes)
          : badRequest("the body could not be read");
      return jsonAnswer(outcome.body, {
        status: outcome.status,
        ...(outcome.status === 409 ? { headers: retryAfter(outcome.retryAfterSeconds) } : {}),
      });
    },
  };
}

/**
 * Whole seconds until a claim last touched at `updatedAt` may be taken over. "More than" the
 * threshold, and stores that keep times to the second, can each add up to a second, so one
 * second is added: a sender that waits this long finds the claim stale.
 */
function secondsUntilStale(updatedAt: number, staleAfterMs: number, now: number): number {
  return Math.max(1, Math.ceil((updatedAt + staleAfterMs + 1000 - now) / 1000));
}

function badRequest(reason: string): WebhookOutcome {
  return {
    status: 400,
    body: errorEnvelope(400, `${JSON_BODY_FAILURE_PREFIX}${reason}`),
    detail: reason,
  };
}

function tooLarge(maxBodyBytes: number): WebhookOutcome {
  const message = `Request body is too large (maximum is ${maxBodyBytes} bytes)`;
  return { status: 413, body: errorEnvelope(413, message), detail: message };
}

/** The required options, checked before the route is built (see `requireFunctionOption`). */
function checkWebhookOptions(options: unknown): void {
  const fn = "webhookRoute";
  const source = (options as { source?: unknown } | undefined)?.source;
  if (typeof source !== "string" || source === "") {
    throw configurationError(fn, "source", "is missing", 'name the sender, e.g. `"github"`');
  }
  requireFunctionOption(
    fn,
    options,
    "verify",
    "pass the sender's verifier, e.g. `githubSignatureVerifier({ secret })`",
  );
  requireObjectOption(
    fn,
    options,
    "store",
    ["claim", "markProcessed", "markFailed"],
    "pass the event log, e.g. `new SqlWebhookEventStore(database)` from @tessera/webhooks/sql",
  );
  requireFunctionOption(fn, options, "effect", "pass what an event does, e.g. `(event) => …`");
}
