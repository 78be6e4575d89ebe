/** The outcome of an operation that can fail in an expected way: a value, or a reason. */
export type Result<T, R extends string = string> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: R };

/** Wraps a value as a successful {@link Result}. */
export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/** Wraps a reason as a failed {@link Result}. */
export function fail<R extends string>(reason: R): { readonly ok: false; readonly reason: R } {
  return { ok: false, reason };
}
