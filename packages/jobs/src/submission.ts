import { unstorableText } from "@tessera/core";
import { postSignedJson } from "@tessera/signer";
import type { JobInput } from "./job-definition.js";
import type { JobEvent } from "./state-machine.js";

/** Where and how a job is submitted: `<JOB>_URL`, `<JOB>_SECRET`, `<JOB>_TOKEN`. */
export interface SubmissionTarget {
  readonly url: string;
  /** Signs the body into `X-Signature`; also verifies signed callbacks. */
  readonly secret: string;
  /** Sent as `Authorization: Bearer <token>` when set and not empty. */
  readonly bearerToken?: string | undefined;
  /** The variable name used in error texts, e.g. `RENDER_URL`. */
  readonly urlName: string;
  readonly timeoutMs: number;
  readonly fetch?: ((request: Request) => Promise<Response>) | undefined;
}

/** The body POSTed to the service (docs/webhooks-and-jobs.md, "Submission"). */
export interface SubmissionBody {
  readonly id: number;
  readonly input: JobInput;
  /** The callback address, `<APP_URL>/webhooks/<job>/<id>?token=<token>`. */
  readonly webhook: string;
}

const QUOTED_BODY_LENGTH = 200;

/**
 * Makes one submission attempt and says what it gave: `accepted` for any 2xx answer (with
 * the answer's `id` as text when it is a JSON object carrying a string or number `id`), or
 * `refused` with a readable error. Never throws for what the network or the service does.
 */
export async function submitJob(target: SubmissionTarget, body: SubmissionBody): Promise<JobEvent> {
  const answer = await postSignedJson(target.url, body, {
    secret: target.secret,
    bearerToken: target.bearerToken,
    timeoutMs: target.timeoutMs,
    ...(target.fetch ? { fetch: target.fetch } : {}),
  });
  if (answer.ok) return { type: "accepted", externalId: externalIdOf(answer.value.body) };
  switch (answer.reason) {
    case "non-2xx": {
      // Stored as the job's error: a NUL in it would fail that write on PostgreSQL.
      const quoted = Array.from(answer.body)
        .slice(0, QUOTED_BODY_LENGTH)
        .join("")
        .replaceAll("\u0000", "\uFFFD");
      return refused(`${target.urlName} answered ${answer.status}: ${quoted}`);
    }
    case "timeout":
      return refused(`${target.urlName} did not answer within ${target.timeoutMs} ms`);
    case "connection-refused":
      return refused(`${target.urlName} refused the connection`);
    case "response-too-large":
      // A 2xx all the same: the service took the job, only its answer is unreadable.
      return { type: "accepted", externalId: null };
    case "network-error":
      return refused(`${target.urlName} could not be reached: ${answer.message}`);
  }
}

function refused(error: string): JobEvent {
  return { type: "refused", error };
}

/**
 * The answer's `id` as text, or null when the answer is not a JSON object with one, or its id
 * holds a NUL or a lone surrogate (no database stores such text alike).
 */
function externalIdOf(text: string): string | null {
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return null;
  }
  const id = (answer as { id?: unknown } | null)?.id;
  if (typeof id === "string" && id.length > 0) return unstorableText(id) ? null : id;
  if (typeof id === "number" && Number.isFinite(id)) return String(id);
  return null;
}
