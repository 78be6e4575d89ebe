import { readBoundedAnswer } from "@tessera/core";
import {
  checkOutboundUrl,
  type OutboundPolicy,
  type ResolveHost,
  refusedAddress,
} from "./outbound-policy.js";
import {
  OUTBOUND_ANSWER_BYTES,
  OUTBOUND_TIMEOUT_MS,
  type OutboundFetch,
  type OutboundFetchLimits,
  type OutboundOutcome,
} from "./outbound-request.js";

/** Options of {@link guardedFetch}. */
export interface GuardedFetchOptions extends OutboundPolicy, OutboundFetchLimits {
  /**
   * Resolves a host name so its addresses are checked before the request. Without it a host
   * name is not checked after DNS: leave it out only where the runtime's fetch cannot reach
   * private networks (Cloudflare Workers). On Node use `nodeGuardedFetch` from
   * `@tessera/outbound/node`, which checks at connect time.
   */
  readonly resolveHost?: ResolveHost | undefined;
  /** The fetch to use (default `globalThis.fetch`). */
  readonly fetch?: ((request: Request) => Promise<Response>) | undefined;
}

/**
 * The guarded request of every runtime with a WHATWG `fetch`: the URL checked
 * ({@link checkOutboundUrl}), a host name's addresses checked through `resolveHost`, then one
 * POST (or a GET, when the request says so) with `redirect: "manual"` (a 3xx is an answer like
 * any other), under a timeout, keeping the answer's first `answerBytes` (1 KiB by default). The check and the connection resolve the name separately, so a DNS
 * server that changes its answer in between (rebinding) is not stopped here: on Node, prefer
 * `nodeGuardedFetch`, which checks the very addresses it connects to.
 */
export function guardedFetch(options: GuardedFetchOptions = {}): OutboundFetch {
  const timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const answerBytes = options.answerBytes ?? OUTBOUND_ANSWER_BYTES;
  const now = options.now ?? (() => performance.now());
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  return async (request) => {
    const started = now();
    const elapsed = () => Math.round(now() - started);
    const target = checkOutboundUrl(request.url, options);
    if (!target.ok) return { kind: "refused", message: target.reason, durationMs: 0 };
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      if (!target.allowed && !target.literal && options.resolveHost) {
        const refusal = refusedAddress(target.host, await options.resolveHost(target.host));
        if (refusal) return { kind: "refused", message: refusal, durationMs: elapsed() };
      }
      const response = await send(
        new Request(target.url, {
          method: request.method ?? "POST",
          headers: request.headers,
          body: request.method === "GET" ? null : request.body,
          redirect: "manual",
          signal,
        }),
      );
      const answer = await readBoundedAnswer(response, answerBytes);
      return {
        kind: "answered",
        status: response.status,
        answer: answer.text,
        complete: answer.complete,
        durationMs: elapsed(),
      };
    } catch (error) {
      return failureOutcome(error, signal.aborted, timeoutMs, elapsed());
    }
  };
}

/** The outcome of a request that threw: a timeout when the timer fired, else a network error. */
export function failureOutcome(
  error: unknown,
  timedOut: boolean,
  timeoutMs: number,
  durationMs: number,
): OutboundOutcome {
  if (timedOut) return { kind: "timeout", message: `no answer within ${timeoutMs} ms`, durationMs };
  const cause = (error as { cause?: unknown } | null)?.cause;
  const detail = cause instanceof Error ? `: ${cause.message}` : "";
  const message = `${error instanceof Error ? error.message : String(error)}${detail}`;
  return { kind: "network-error", message, durationMs };
}
