import { badRequest } from "./error-envelope.js";

/** Why a body reader refused a request. */
export type BodyFailureReason =
  | "unsupported-media-type"
  | "too-large"
  | "unreadable"
  | "malformed"
  | "wrong-type";

/** A refused body: the reason, the full message, and the 400 to send as it is. */
export interface BodyFailure {
  readonly ok: false;
  readonly reason: BodyFailureReason;
  readonly message: string;
  readonly response: Response;
}

/** What the body readers return: a Result whose failure carries its ready 400 response. */
export type BodyResult<T> = { readonly ok: true; readonly value: T } | BodyFailure;

/** Options shared by the body readers. */
export interface BodyReadOptions {
  /** Largest body accepted, in bytes; default 1 MiB. Larger bodies are a 400 `too-large`. */
  readonly maximumBytes?: number | undefined;
}

/** A refusal with its message and the matching 400 in the JSON error envelope. */
export function bodyFailure(reason: BodyFailureReason, message: string): BodyFailure {
  return { ok: false, reason, message, response: badRequest(message) };
}
