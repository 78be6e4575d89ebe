import type { FieldMessages } from "./messages.js";

/** A value as written to a column: text, number (booleans as 0 or 1) or null. */
export type ColumnValue = string | number | null;

/** The prefix of every 400 message; a {@link DecodeResult} with status 400 gives the rest. */
export const DESERIALIZE_PREFIX = "Failed to deserialize the JSON body into the target type: ";

/** The envelope message of a 422. */
export const VALIDATION_FAILED = "Validation failed";

/** Column values to write, and the `lock_version` the client sent (update only). */
export interface DecodedRecord {
  /** Keyed by column; on update only the columns to change (a missing key keeps its value). */
  readonly values: Readonly<Record<string, ColumnValue>>;
  /** Present when the client sent `lock_version`: it must equal the stored one, else 409. */
  readonly lockVersion?: number | undefined;
}

/** A file from a form, as a WHATWG `File` has it. */
export interface FormFile {
  readonly name: string;
  readonly size: number;
  readonly type: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** One accepted file of a form: the field it belongs to and the file (store it, then set the columns). */
export interface Upload<F extends FormFile = FormFile> {
  readonly field: string;
  readonly file: F;
}

/** A decoded form: column values plus the files that passed the attachment rules. */
export interface DecodedForm<F extends FormFile = FormFile> extends DecodedRecord {
  readonly uploads: readonly Upload<F>[];
}

/** Form input: `FormData` and `URLSearchParams` both fit. */
export interface FormInput<F extends FormFile = FormFile> {
  getAll(name: string): ReadonlyArray<string | F>;
}

/**
 * The outcome of decoding a body: the values to write, a 400 (`reason` is the text after
 * {@link DESERIALIZE_PREFIX}; the first problem found) or a 422 with every failing field.
 */
export type DecodeResult<T = DecodedRecord> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly status: 400; readonly reason: string }
  | {
      readonly ok: false;
      readonly status: 422;
      readonly reason: typeof VALIDATION_FAILED;
      readonly fields: FieldMessages;
    };

/** A 400 result. */
export function malformed(reason: string): { ok: false; status: 400; reason: string } {
  return { ok: false, status: 400, reason };
}

/** A 422 result carrying every failing field's messages. */
export function invalid(fields: FieldMessages): {
  ok: false;
  status: 422;
  reason: typeof VALIDATION_FAILED;
  fields: FieldMessages;
} {
  return { ok: false, status: 422, reason: VALIDATION_FAILED, fields };
}
