/** A job callback as a {@link CallbackVerifier} reads it: its headers, raw body and address. */
export interface CallbackDelivery {
  readonly headers: Headers;
  /** The exact bytes received: a signature covers them, never a re-serialized body. */
  readonly body: Uint8Array;
  /** The request's absolute URL. */
  readonly url: string;
}

/**
 * Says whether a callback is signed by the service: `ok` when it is. Typed by its shape, so
 * that any verifier of `@tessera/webhooks` fits as it is (`signatureHeaderVerifier({ secret })`
 * for an `X-Signature` made with `<JOB>_SECRET`, `standardWebhookVerifier(…)`, …) without this
 * package depending on that one. It must not throw, and should compare in constant time.
 */
export type CallbackVerifier = (delivery: CallbackDelivery) => { readonly ok: boolean };
