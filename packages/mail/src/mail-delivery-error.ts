/**
 * Thrown (as a rejection of `send`) when an adapter could not hand a mail over. The message
 * names the server and what it answered, never credentials; the original error is `cause`.
 */
export class MailDeliveryError extends Error {
  override readonly name = "MailDeliveryError";
}
