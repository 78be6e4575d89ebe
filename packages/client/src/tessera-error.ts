/** The JSON error envelope every Tessera route answers a refusal with. */
export interface ErrorEnvelope {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly status: number;
    readonly fields?: Readonly<Record<string, readonly string[]>> | undefined;
  };
}

/**
 * A refusal of the service, from its envelope `{"error":{"code","message","status","fields"?}}`:
 * `code` is the word to act on (`invalid_credentials`, `validation_failed`,
 * `reauthentication_required`), `message` is for people (in the request's language), `fields`
 * has every failing input's messages on a 422. An answer that is not an envelope (a proxy's 502
 * page) gets the code `unexpected_answer`.
 */
export class TesseraError extends Error {
  override readonly name = "TesseraError";
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The envelope's `error.code`, or `unexpected_answer`. */
  readonly code: string;
  /** Each failing input's messages (a 422), else undefined. */
  readonly fields: Readonly<Record<string, readonly string[]>> | undefined;
  /** The parsed body as it came (undefined when it was not JSON). */
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    const envelope = isErrorEnvelope(body) ? body.error : undefined;
    super(envelope?.message ?? `The service answered ${status}`);
    this.status = status;
    this.code = envelope?.code ?? "unexpected_answer";
    this.fields = envelope?.fields;
    this.body = body;
  }
}

/** Whether `body` is the service's error envelope. */
export function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  if (typeof body !== "object" || body === null) return false;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === "string" && typeof message === "string";
}
