/**
 * One request to a URL a user or an operator supplied: a POST of a text body (a webhook
 * delivery; `method` may be left out), or a GET without one (a lookup such as Have I Been
 * Pwned's range API).
 */
export type OutboundRequest = OutboundPost | OutboundGet;

/** A POST of a text body: every webhook delivery. */
export interface OutboundPost {
  readonly method?: "POST" | undefined;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A GET, which carries no body. */
export interface OutboundGet {
  readonly method: "GET";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: undefined;
}

/**
 * What became of an {@link OutboundRequest}. `answered` is any answer, 3xx included (redirects
 * are never followed); the others never reached a server's answer: the guard `refused` the
 * URL or an address it resolved to, the answer did not come within the timeout, or the
 * connection failed.
 */
export type OutboundOutcome =
  | {
      readonly kind: "answered";
      readonly status: number;
      /** The first bytes of the answer (1 KiB by default) as text; the rest is never read. */
      readonly answer: string;
      /**
       * False when the answer was longer than `answerBytes`, so `answer` is only its start.
       * Both guarded fetches always say; a fetch of one's own may leave it out.
       */
      readonly complete?: boolean | undefined;
      readonly durationMs: number;
    }
  | {
      readonly kind: "refused" | "timeout" | "network-error";
      /** For the attempt log: why, without the request's secrets. */
      readonly message: string;
      readonly durationMs: number;
    };

/** Sends one {@link OutboundRequest} under the guard; never throws for the network's sake. */
export type OutboundFetch = (request: OutboundRequest) => Promise<OutboundOutcome>;

/** Options shared by the guarded fetches (web and Node). */
export interface OutboundFetchLimits {
  /** The whole exchange, answer included, in milliseconds (default 15 000). */
  readonly timeoutMs?: number | undefined;
  /** Bytes of the answer kept (default 1 024); the rest is not read. */
  readonly answerBytes?: number | undefined;
  /** The time durations are measured with (default `performance.now`). */
  readonly now?: (() => number) | undefined;
}

/** The default timeout of an outbound request: 15 s, as svix's. */
export const OUTBOUND_TIMEOUT_MS = 15_000;
/** The default part of an answer kept for the attempt log: 1 KiB. */
export const OUTBOUND_ANSWER_BYTES = 1024;

/** An outbound request refused by the guard (the URL, or an address its host resolved to). */
export class OutboundRefusedError extends Error {
  override readonly name = "OutboundRefusedError";
}
