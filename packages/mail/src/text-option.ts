import { configurationError } from "@tessera/core";

/**
 * The non-empty, one-line string `options[name]`, or core's `TypeError` naming it. Line breaks
 * are refused because these values end up in headers.
 */
export function requireTextOption(
  fn: string,
  options: unknown,
  name: string,
  advice: string,
): string {
  const value = (options as Record<string, unknown> | undefined)?.[name];
  if (typeof value !== "string" || value.trim() === "") {
    throw configurationError(
      fn,
      name,
      value === undefined ? "is missing" : "is not a non-empty string",
      advice,
    );
  }
  if (/[\r\n]/.test(value)) throw configurationError(fn, name, "contains a line break", advice);
  return value;
}
