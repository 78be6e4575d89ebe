/** The body of every JSON error: `{"error":{"message","status"}}`, plus `fields` on a 422. */
export interface ErrorEnvelope {
  readonly error: {
    readonly message: string;
    readonly status: number;
    readonly fields?: Readonly<Record<string, readonly string[]>>;
  };
}

/**
 * The JSON error envelope as plain data, for any framework to serialize. `fields` (field name →
 * messages) is left out of the object when not given, never written as `undefined`.
 */
export function errorEnvelope(
  status: number,
  message: string,
  fields?: Readonly<Record<string, readonly string[]>>,
): ErrorEnvelope {
  return { error: fields ? { message, status, fields } : { message, status } };
}
