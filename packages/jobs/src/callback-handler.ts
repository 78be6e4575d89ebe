import { constantTimeEqualText, type KeyRing } from "@tessera/crypto";
import {
  badRequest,
  httpMessages,
  JSON_BODY_FAILURE_PREFIX,
  jsonAnswer,
  jsonError,
  notFound,
  pathId,
  type RouteHandler,
  readBodyBytes,
} from "@tessera/http";
import { readCallbackEvent } from "./callback-event.js";
import { jobCallbackToken } from "./callback-token.js";
import type { CallbackDelivery, CallbackVerifier } from "./callback-verifier.js";
import type { JobMover } from "./job-change.js";
import type { JobRecord, JobStore } from "./job-store.js";

/** What the callback handler needs; {@link createJobRunner} supplies it. */
export interface CallbackHandlerOptions {
  readonly jobName: string;
  readonly store: JobStore;
  /** A callback it accepts is authentic without a token; none: the token alone authenticates. */
  readonly verifySignature: CallbackVerifier | undefined;
  readonly tokenKeys: KeyRing;
  readonly maxBodyBytes: number;
  readonly move: JobMover;
}

/** The handler of a job's callback route: the job's `<id>` of `/webhooks/<job>/<id>` is `context.params.id`. */
export type CallbackHandler = RouteHandler;

/** The `error.code` of a callback refused as unauthenticated, as a webhook endpoint says it. */
const INVALID_SIGNATURE = "invalid_signature";

/**
 * The job callback route. Authentic when `verifySignature` accepts the raw request or the
 * query `token` is the job's; otherwise 401, also for a job that does not exist, so a caller
 * without credentials learns nothing. A signed call for a missing job is 404. Then the body
 * (400 if unreadable or unknown status) is applied as an event and answered `{"ok":true}`,
 * a late or repeated event included.
 */
export function createCallbackHandler(options: CallbackHandlerOptions): CallbackHandler {
  const { verifySignature } = options;
  return async (request, context) => {
    const body = await readBodyBytes(request, options.maxBodyBytes);
    if (!body.ok) {
      return body.reason === "too-large"
        ? jsonError(413, `Request body is too large (maximum is ${options.maxBodyBytes} bytes)`)
        : badRequest(`${JSON_BODY_FAILURE_PREFIX}the body could not be read`);
    }
    const delivery: CallbackDelivery = {
      headers: request.headers,
      body: body.value,
      url: request.url,
    };
    const signed = verifySignature?.(delivery).ok === true;
    const jobId = pathId(context.params.id);
    const job = jobId === undefined ? undefined : await options.store.find(jobId);
    if (!signed && !(job && carriesToken(options, job, delivery.url))) {
      // As a webhook endpoint answers a delivery it cannot verify.
      return jsonError(401, httpMessages.english["http.unauthenticated"], {
        code: INVALID_SIGNATURE,
      });
    }
    if (!job) return notFound();
    const event = readCallbackEvent(body.value);
    if (!event.ok) return badRequest(event.reason);
    await options.move(job, event.value, "callback", { heartbeat: true });
    return jsonAnswer({ ok: true });
  };
}

/**
 * Whether the query `token` is the job's under any key of the ring (the previous
 * `SECRET_KEY_BASE` too). Each comparison hashes both sides first, so it reveals neither where
 * they differ nor the length; all are made, so the timing does not say which key matched.
 */
function carriesToken(options: CallbackHandlerOptions, job: JobRecord, url: string): boolean {
  const presented = URL.canParse(url) ? new URL(url).searchParams.get("token") : null;
  if (!presented) return false;
  let matched = false;
  for (const key of options.tokenKeys.all) {
    const token = jobCallbackToken(key, options.jobName, job);
    matched = constantTimeEqualText(presented, token) || matched;
  }
  return matched;
}
