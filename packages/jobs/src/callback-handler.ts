import type { KeyRing } from "@tessera/crypto";
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
import {
  signatureHeaderVerifier,
  tokenVerifier,
  type WebhookDelivery,
  type WebhookErrorCode,
  type WebhookVerifier,
} from "@tessera/webhooks";
import { readCallbackEvent } from "./callback-event.js";
import { jobCallbackToken } from "./callback-token.js";
import type { JobMover } from "./job-change.js";
import type { JobRecord, JobStore } from "./job-store.js";

/** What the callback handler needs; {@link createJobRunner} supplies it. */
export interface CallbackHandlerOptions {
  readonly jobName: string;
  readonly store: JobStore;
  /** `<JOB>_SECRET`: a body signed with it in `X-Signature` is authentic. */
  readonly secret: string;
  readonly tokenKeys: KeyRing;
  readonly maxBodyBytes: number;
  readonly move: JobMover;
}

/** The handler of a job's callback route: the job's `<id>` of `/webhooks/<job>/<id>` is `context.params.id`. */
export type CallbackHandler = RouteHandler;

/**
 * The job callback route. Authentic when the raw body carries a valid `X-Signature` or the
 * query `token` is the job's; otherwise 401, also for a job that does not exist, so a caller
 * without credentials learns nothing. A signed call for a missing job is 404. Then the body
 * (400 if unreadable or unknown status) is applied as an event and answered `{"ok":true}`,
 * a late or repeated event included.
 */
export function createCallbackHandler(options: CallbackHandlerOptions): CallbackHandler {
  const verifySignature = signatureHeaderVerifier({ secret: options.secret });
  return async (request, context) => {
    const body = await readBodyBytes(request, options.maxBodyBytes);
    if (!body.ok) {
      return body.reason === "too-large"
        ? jsonError(413, `Request body is too large (maximum is ${options.maxBodyBytes} bytes)`)
        : badRequest(`${JSON_BODY_FAILURE_PREFIX}the body could not be read`);
    }
    const delivery: WebhookDelivery = {
      headers: request.headers,
      body: body.value,
      url: request.url,
    };
    const signed = verifySignature(delivery).ok;
    const jobId = pathId(context.params.id);
    const job = jobId === undefined ? undefined : await options.store.find(jobId);
    if (!signed && !(job && carriesToken(options, job, delivery))) {
      // As a webhook endpoint answers a delivery it cannot verify.
      return jsonError(401, httpMessages.english["http.unauthenticated"], {
        code: "invalid_signature" satisfies WebhookErrorCode,
      });
    }
    if (!job) return notFound();
    const event = readCallbackEvent(body.value);
    if (!event.ok) return badRequest(event.reason);
    await options.move(job, event.value, "callback", { heartbeat: true });
    return jsonAnswer({ ok: true });
  };
}

function carriesToken(
  options: CallbackHandlerOptions,
  job: JobRecord,
  delivery: WebhookDelivery,
): boolean {
  const verifiers: WebhookVerifier[] = options.tokenKeys.all.map((key) =>
    tokenVerifier({ token: jobCallbackToken(key, options.jobName, job) }),
  );
  return verifiers.some((verify) => verify(delivery).ok);
}
