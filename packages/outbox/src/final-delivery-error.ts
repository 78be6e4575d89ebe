/**
 * Thrown by a runner's `deliver` for a failure that retrying cannot fix (a provider's 4xx other
 * than 429, an address that does not exist): the item fails at once, keeping this message.
 * Any other error is retried on the runner's schedule.
 */
export class FinalDeliveryError extends Error {
  override readonly name = "FinalDeliveryError";
}

/**
 * Whether `error` is final: a {@link FinalDeliveryError}, or any error with `final: true` (so
 * a package need not import this class to mark its own errors).
 */
export function isFinalDeliveryError(error: unknown): boolean {
  return (
    error instanceof FinalDeliveryError ||
    (typeof error === "object" && error !== null && (error as { final?: unknown }).final === true)
  );
}
