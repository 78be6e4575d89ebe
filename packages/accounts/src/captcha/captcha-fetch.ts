import { readBoundedAnswer } from "@tessera/core";

/** One verification request: a POST of a form-encoded body to the provider's `siteverify`. */
export interface CaptchaRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * What became of a {@link CaptchaRequest}: an answer (its status and its text), or none
 * (refused by a guard, timed out, the connection failed).
 */
export type CaptchaFetchOutcome =
  | { readonly kind: "answered"; readonly status: number; readonly answer: string }
  | { readonly kind: "refused" | "timeout" | "network-error"; readonly message: string };

/**
 * Sends a {@link CaptchaRequest} and never throws for the network's sake. The guarded fetch of
 * `@tessera/outbound` (`nodeGuardedFetch`, `guardedFetch`) has this shape, so an app passes it
 * as it is; {@link webCaptchaFetch} is one on the runtime's `fetch`.
 */
export type CaptchaFetch = (request: CaptchaRequest) => Promise<CaptchaFetchOutcome>;

/** How long a verification may take by default before it counts as failed: 5 seconds. */
export const CAPTCHA_TIMEOUT_MS = 5_000;

/** The most of an answer read: a `siteverify` answer is a few hundred bytes. */
const ANSWER_BYTES = 16_384;

/**
 * A {@link CaptchaFetch} on the runtime's WHATWG `fetch`: no redirect followed, the whole
 * exchange within `timeoutMs` (default {@link CAPTCHA_TIMEOUT_MS}).
 */
export function webCaptchaFetch(
  options: {
    readonly timeoutMs?: number | undefined;
    readonly fetch?: typeof fetch | undefined;
  } = {},
): CaptchaFetch {
  const timeoutMs = options.timeoutMs ?? CAPTCHA_TIMEOUT_MS;
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  return async (request) => {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await send(request.url, {
        method: "POST",
        headers: request.headers,
        body: request.body,
        redirect: "manual",
        signal,
      });
      // Read no further than the bound: the rest of an oversized answer is never buffered.
      const answer = await readBoundedAnswer(response, ANSWER_BYTES);
      return { kind: "answered", status: response.status, answer: answer.text };
    } catch (error) {
      if (signal.aborted) return { kind: "timeout", message: `no answer within ${timeoutMs} ms` };
      return { kind: "network-error", message: (error as Error).message };
    }
  };
}
