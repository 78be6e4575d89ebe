import { ok, readBoundedAnswer } from "@tessera/core";
import { SIGNATURE_HEADER, signBody } from "./body-signature.js";

/** Options of {@link postSignedJson}. */
export interface PostSignedJsonOptions {
  /** Signs the body into `X-Signature` (lowercase hex HMAC-SHA256). */
  readonly secret: string | Uint8Array;
  /** Sent as `Authorization: Bearer <token>` when set and not empty. */
  readonly bearerToken?: string | undefined;
  /** Whole exchange, body included, in milliseconds (default 10 000). */
  readonly timeoutMs?: number | undefined;
  /** Answers longer than this are not read to the end (default 1 MiB). */
  readonly maxResponseBytes?: number | undefined;
  /** The fetch to use (default `globalThis.fetch`); tests and proxies inject their own. */
  readonly fetch?: ((request: Request) => Promise<Response>) | undefined;
}

/** A 2xx answer. */
export interface SignedCallResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The answer's body as text (UTF-8). */
  readonly body: string;
}

/** Why a signed call did not get a 2xx answer; only `non-2xx` heard back from the server. */
export type SignedCallFailure =
  | { readonly ok: false; readonly reason: "timeout"; readonly message: string }
  | { readonly ok: false; readonly reason: "connection-refused"; readonly message: string }
  | { readonly ok: false; readonly reason: "network-error"; readonly message: string }
  | { readonly ok: false; readonly reason: "response-too-large"; readonly message: string }
  | {
      readonly ok: false;
      readonly reason: "non-2xx";
      readonly status: number;
      /** The answer's body, cut at `maxResponseBytes`. */
      readonly body: string;
      readonly message: string;
    };

/** The outcome of {@link postSignedJson}: a {@link @tessera/core!Result}-shaped value, never a throw. */
export type SignedCallResult =
  | { readonly ok: true; readonly value: SignedCallResponse }
  | SignedCallFailure;

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * POSTs `payload` as JSON with `Content-Type: application/json`, `X-Signature` over the exact
 * bytes sent and an optional bearer token, under a timeout. Every way the call can go wrong
 * (timeout, refused connection, non-2xx answer) comes back as a failure value.
 * @throws only for programmer error: an empty secret or a payload `JSON.stringify` rejects.
 *
 * @example
 * ```ts
 * import { postSignedJson } from "@tessera/signer";
 *
 * const result = await postSignedJson(
 *   "https://render.example/jobs",
 *   { id: 7, prompt: "a lighthouse" },
 *   { secret: process.env.RENDER_SECRET!, timeoutMs: 10_000 },
 * );
 * if (result.ok) console.log(result.value.status, result.value.body);
 * else console.error(result.reason); // "non-2xx", "timeout", "connection-refused", ...
 * ```
 */
export async function postSignedJson(
  url: string | URL,
  payload: unknown,
  options: PostSignedJsonOptions,
): Promise<SignedCallResult> {
  const body = JSON.stringify(payload);
  if (body === undefined) throw new TypeError("the payload has no JSON representation");
  const headers = new Headers({
    "Content-Type": "application/json",
    [SIGNATURE_HEADER]: signBody(body, options.secret),
  });
  if (options.bearerToken) headers.set("Authorization", `Bearer ${options.bearerToken}`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const request = new Request(url, {
    method: "POST",
    headers,
    body,
    // A redirect would replay the signed body and bearer token elsewhere: report it instead.
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs),
  });
  const send = options.fetch ?? ((outgoing: Request) => globalThis.fetch(outgoing));
  try {
    const response = await send(request);
    const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const answer = await readBoundedAnswer(response, limit);
    if (!response.ok) {
      return {
        ok: false,
        reason: "non-2xx",
        status: response.status,
        body: answer.text,
        message: `answered ${response.status}`,
      };
    }
    if (!answer.complete) {
      return { ok: false, reason: "response-too-large", message: `answer exceeds ${limit} bytes` };
    }
    return ok({ status: response.status, headers: response.headers, body: answer.text });
  } catch (error) {
    return describeFailure(error, timeoutMs);
  }
}

function describeFailure(error: unknown, timeoutMs: number): SignedCallFailure {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "TimeoutError") {
    return { ok: false, reason: "timeout", message: `no answer within ${timeoutMs} ms` };
  }
  const message = error instanceof Error ? error.message : String(error);
  // undici (Node's fetch) reports the socket error as the cause of a generic "fetch failed".
  const code = (error as { cause?: { code?: unknown } | undefined } | null)?.cause?.code;
  if (code === "ECONNREFUSED") {
    return { ok: false, reason: "connection-refused", message: `connection refused (${message})` };
  }
  return { ok: false, reason: "network-error", message };
}
