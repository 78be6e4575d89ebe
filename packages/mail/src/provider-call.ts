import { type BoundedAnswer, readBoundedAnswer } from "@tessera/core";
import { MailDeliveryError } from "./mail-delivery-error.js";
import { parseRetryAfter } from "./retry-after.js";
import { backoffDelay, type ResolvedRetryPolicy } from "./retry-policy.js";

/** One mail's request to an HTTP provider, as {@link callProvider} makes it. */
export interface ProviderCall {
  /** The provider's name for error messages: "Resend". */
  readonly provider: string;
  /** Makes and sends a fresh request (signed anew where the provider wants it) under `signal`. */
  readonly send: (signal: AbortSignal) => Promise<Response>;
  /** The provider's own error message from its parsed JSON error body (and answer headers). */
  readonly errorMessageOf: (body: unknown, headers: Headers) => string | undefined;
  /** Texts that must never appear in an error (the API key, the secret access key). */
  readonly secrets: readonly string[];
}

/**
 * Sent by the JSON adapters: Resend refuses a request without a User-Agent (403), and workerd's
 * fetch sends none of its own.
 */
export const USER_AGENT = "tessera-mail";

// Error bodies are a line or two of JSON; a bigger answer is not the provider's error message.
const ERROR_BODY_LIMIT = 16 * 1024;
const SNIPPET_LENGTH = 200;

/**
 * Sends `call` under `policy`: resolves on a 2xx answer (its body left unread), retries network
 * errors, timeouts, 429 and 5xx with backoff or the provider's `Retry-After`, and rejects with a
 * {@link MailDeliveryError} carrying the provider's message (never a secret) otherwise. `deadline`
 * (the caller's, such as an outbox attempt's) ends the request, its answer and the retries at
 * once, on top of each request's own `timeoutMs`.
 */
export async function callProvider(
  call: ProviderCall,
  policy: ResolvedRetryPolicy,
  deadline?: AbortSignal,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const failure = await attemptOnce(call, policy, deadline);
    if (failure === undefined) return;
    const asked = failure.retryAfterMs;
    if (!failure.retryable || attempt === policy.attempts || deadline?.aborted) {
      throw attempt > 1 ? withAttempts(failure, attempt) : failure;
    }
    // A provider that asks for a longer pause than we may hold the sender gets it from the
    // caller's schedule (an outbox's next run), not from us sleeping through it.
    if (asked !== undefined && asked > policy.maxDelayMs) throw failure;
    if (!(await slept(policy, asked ?? backoffDelay(policy, attempt + 1), deadline))) {
      throw attempt > 1 ? withAttempts(failure, attempt) : failure;
    }
  }
}

/** Sleeps `ms` by the policy; false when `deadline` aborts first. */
async function slept(
  policy: ResolvedRetryPolicy,
  ms: number,
  deadline: AbortSignal | undefined,
): Promise<boolean> {
  if (deadline === undefined) {
    await policy.sleep(ms);
    return true;
  }
  let stop: (() => void) | undefined;
  const aborted = new Promise<false>((resolve) => {
    stop = () => resolve(false);
    deadline.addEventListener("abort", stop, { once: true });
  });
  try {
    return await Promise.race([policy.sleep(ms).then(() => !deadline.aborted), aborted]);
  } finally {
    if (stop) deadline.removeEventListener("abort", stop);
  }
}

async function attemptOnce(
  call: ProviderCall,
  policy: ResolvedRetryPolicy,
  deadline: AbortSignal | undefined,
): Promise<MailDeliveryError | undefined> {
  const redact = redactor(call.secrets);
  // One signal for the connection, the headers and the body: the body is read under it too.
  const timeout = AbortSignal.timeout(policy.timeoutMs);
  const signal = deadline ? AbortSignal.any([deadline, timeout]) : timeout;
  let response: Response;
  try {
    response = await call.send(signal);
  } catch (error) {
    return new MailDeliveryError(redact(`${call.provider}: ${networkReason(error, policy)}`), {
      cause: error,
      retryable: true,
    });
  }
  if (response.ok) {
    // Success needs nothing from the body; cancelling frees the connection without reading it.
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const retryable = response.status === 429 || response.status >= 500;
  const retryAfterMs = retryable
    ? parseRetryAfter(response.headers.get("Retry-After"), policy.clock())
    : undefined;
  let answer: BoundedAnswer | undefined;
  try {
    answer = await readBoundedAnswer(response, ERROR_BODY_LIMIT);
  } catch {
    // The timeout or the connection ended the answer midway.
    answer = undefined;
  }
  const providerMessage = answer?.complete
    ? providerMessageOf(call, answer.text, response.headers)
    : undefined;
  const said =
    providerMessage ??
    (answer === undefined
      ? timeout.aborted
        ? `its answer did not end within ${policy.timeoutMs} ms`
        : "its answer broke off"
      : answer.complete
        ? snippet(answer.text)
        : `an answer over ${ERROR_BODY_LIMIT} bytes, not read`);
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  return new MailDeliveryError(
    redact(`${call.provider} answered ${status}${said ? `: ${said}` : ""}`),
    {
      status: response.status,
      ...(providerMessage === undefined ? {} : { providerMessage: redact(providerMessage) }),
      retryable,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    },
  );
}

function providerMessageOf(call: ProviderCall, text: string, headers: Headers): string | undefined {
  try {
    const message = call.errorMessageOf(JSON.parse(text), headers);
    return message === undefined ? undefined : singleLine(message);
  } catch {
    return undefined;
  }
}

function networkReason(error: unknown, policy: ResolvedRetryPolicy): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "TimeoutError") return `no answer within ${policy.timeoutMs} ms`;
  const message = error instanceof Error ? error.message : String(error);
  // undici (Node's fetch) says only "fetch failed" and keeps the socket's reason in `cause`.
  const cause = (error as { cause?: unknown } | null)?.cause;
  const detail = cause instanceof Error && cause.message ? ` (${cause.message})` : "";
  return `could not send the request: ${message}${detail}`;
}

function withAttempts(failure: MailDeliveryError, attempts: number): MailDeliveryError {
  return new MailDeliveryError(`${failure.message} (after ${attempts} attempts)`, {
    ...(failure.cause === undefined ? {} : { cause: failure.cause }),
    ...(failure.status === undefined ? {} : { status: failure.status }),
    ...(failure.providerMessage === undefined ? {} : { providerMessage: failure.providerMessage }),
    ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
    retryable: failure.retryable,
  });
}

function snippet(text: string): string {
  const line = singleLine(text);
  return line.length > SNIPPET_LENGTH ? `${line.slice(0, SNIPPET_LENGTH)}…` : line;
}

function singleLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function redactor(secrets: readonly string[]): (text: string) => string {
  const present = secrets.filter((secret) => secret !== "");
  return (text) =>
    present.reduce((result, secret) => result.split(secret).join("[redacted]"), text);
}
