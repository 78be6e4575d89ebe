/** What a {@link MailDeliveryError} knows beyond its message. */
export interface MailDeliveryErrorOptions extends ErrorOptions {
  /** The provider's HTTP status, when it answered. */
  readonly status?: number | undefined;
  /** The provider's own words (`message` of its error body), when it gave any. */
  readonly providerMessage?: string | undefined;
  /** True when trying again later may succeed (network error, 429, 5xx). */
  readonly retryable?: boolean | undefined;
  /** How long the provider asked to wait (`Retry-After`) before trying again, in milliseconds. */
  readonly retryAfterMs?: number | undefined;
}

/**
 * Thrown (as a rejection of `send`) when an adapter could not hand a mail over. The message
 * names the provider or server and what it answered, never credentials; the original error is
 * `cause`. `retryable` tells an outbox whether another attempt later is worth making.
 */
export class MailDeliveryError extends Error {
  override readonly name = "MailDeliveryError";
  readonly status: number | undefined;
  readonly providerMessage: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: MailDeliveryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.providerMessage = options.providerMessage;
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
}
