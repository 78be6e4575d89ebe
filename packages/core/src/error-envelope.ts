import { errorCodeOfStatus } from "./error-codes.js";

/**
 * The body of every JSON error: `{"error":{"code","message","status"}}`, plus `fields` on a
 * 422. `code` is a stable snake_case word for programs; `message` is for people and may change.
 */
export interface ErrorEnvelope {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly status: number;
    readonly fields?: Readonly<Record<string, readonly string[]>> | undefined;
  };
}

/** What {@link errorEnvelope} takes besides the status and message. */
export interface ErrorDetails {
  /** The error's code; default the status's own word (`errorCodeOfStatus`). */
  readonly code?: string | undefined;
  /** Each failing field's messages, on a 422. */
  readonly fields?: Readonly<Record<string, readonly string[]>> | undefined;
}

/**
 * The JSON error envelope as plain data, for any framework to serialize. `fields` (field name →
 * messages) is left out of the object when not given, never written as `undefined`.
 */
export function errorEnvelope(
  status: number,
  message: string,
  details: ErrorDetails = {},
): ErrorEnvelope {
  const code = details.code ?? errorCodeOfStatus(status);
  const { fields } = details;
  return { error: fields ? { code, message, status, fields } : { code, message, status } };
}
