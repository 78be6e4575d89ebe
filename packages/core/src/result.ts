/** The outcome of an operation that can fail in an expected way: a value, or a reason. */
export type Result<T, R extends string = string> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: R };

/**
 * Wraps a value as a successful {@link Result}.
 *
 * @example
 * ```ts
 * import { fail, ok, type Result } from "@tessera/core";
 *
 * function parsePort(text: string): Result<number, "not-a-port"> {
 *   const port = Number(text);
 *   return Number.isInteger(port) && port > 0 && port < 65_536 ? ok(port) : fail("not-a-port");
 * }
 * const port = parsePort("3000");
 * if (port.ok) console.log(port.value); // 3000
 * ```
 */
export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/** Wraps a reason as a failed {@link Result}. */
export function fail<R extends string>(reason: R): { readonly ok: false; readonly reason: R } {
  return { ok: false, reason };
}
