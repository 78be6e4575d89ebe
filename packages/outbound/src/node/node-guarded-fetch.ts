import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { failureOutcome } from "../guarded-fetch.js";
import { checkOutboundUrl, type OutboundPolicy } from "../outbound-policy.js";
import {
  OUTBOUND_ANSWER_BYTES,
  OUTBOUND_TIMEOUT_MS,
  type OutboundFetch,
  type OutboundFetchLimits,
  type OutboundOutcome,
  OutboundRefusedError,
} from "../outbound-request.js";
import { guardedLookup, type NodeLookup } from "./guarded-lookup.js";

/** Options of {@link nodeGuardedFetch}. */
export interface NodeGuardedFetchOptions extends OutboundPolicy, OutboundFetchLimits {
  /**
   * Resolves host names (default `dns.lookup`); every address it gives is checked before the
   * socket connects. Tests pass one that answers what a hostile DNS server would.
   */
  readonly lookup?: NodeLookup | undefined;
}

/**
 * The guarded request on Node: the URL checked ({@link checkOutboundUrl}), then one POST (or a
 * GET, when the request says so) with `node:http`/`node:https` whose `lookup` refuses a host
 * resolving to any address that is not public, at connect time (the rebinding defence fetch
 * cannot give). Redirects are not followed (Node's http never does); the timeout covers the
 * whole exchange; the answer's first `answerBytes` (1 KiB by default) are kept and the rest
 * never read. No proxy is used.
 */
export function nodeGuardedFetch(options: NodeGuardedFetchOptions = {}): OutboundFetch {
  const timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const answerBytes = options.answerBytes ?? OUTBOUND_ANSWER_BYTES;
  const now = options.now ?? (() => performance.now());
  const checkedLookup = guardedLookup(options.lookup);
  return (outbound) =>
    new Promise<OutboundOutcome>((resolve) => {
      const started = now();
      const elapsed = () => Math.round(now() - started);
      const target = checkOutboundUrl(outbound.url, options);
      if (!target.ok) return resolve({ kind: "refused", message: target.reason, durationMs: 0 });
      const send = target.url.protocol === "https:" ? httpsRequest : httpRequest;
      const body = outbound.method === "GET" ? undefined : outbound.body;
      const request = send(target.url, {
        method: outbound.method ?? "POST",
        headers:
          body === undefined
            ? outbound.headers
            : { ...outbound.headers, "content-length": Buffer.byteLength(body) },
        // An allowed host (tests, operators) is looked up the ordinary way.
        lookup: target.allowed ? options.lookup : checkedLookup,
        agent: false,
      });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        request.destroy(new Error("timeout"));
      }, timeoutMs);
      const settle = (outcome: OutboundOutcome) => {
        clearTimeout(timer);
        resolve(outcome);
      };
      request.on("response", (response) => {
        readAnswer(response, answerBytes).then(
          ({ text, complete }) =>
            settle({
              kind: "answered",
              status: response.statusCode ?? 0,
              answer: text,
              complete,
              durationMs: elapsed(),
            }),
          (error) => settle(failureOutcome(error, timedOut, timeoutMs, elapsed())),
        );
      });
      request.on("error", (error) => {
        if (error instanceof OutboundRefusedError) {
          settle({ kind: "refused", message: error.message, durationMs: elapsed() });
        } else {
          settle(failureOutcome(error, timedOut, timeoutMs, elapsed()));
        }
      });
      request.end(body);
    });
}

/**
 * Reads up to `limit` bytes of the answer as UTF-8, then drops the connection; `complete` is
 * false when there was more (an answer of exactly `limit` bytes is complete).
 */
function readAnswer(
  response: IncomingMessage,
  limit: number,
): Promise<{ readonly text: string; readonly complete: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    const finish = (complete: boolean) =>
      resolve({ text: new TextDecoder().decode(Buffer.concat(chunks)), complete });
    response.on("data", (chunk: Buffer) => {
      const room = limit - kept;
      chunks.push(chunk.subarray(0, room));
      kept += Math.min(room, chunk.length);
      if (chunk.length > room) {
        response.removeAllListeners("data");
        response.destroy();
        finish(false);
      }
    });
    response.on("end", () => finish(true));
    response.on("error", reject);
  });
}
