import { type UnstorableText, unstorableText } from "@tessera/core";

/** Deepest nesting of arrays and objects a JSON value may have: serde_json's limit. */
export const MAX_JSON_DEPTH = 128;

/** serde_json's words for a number too large for its type. */
export const OUT_OF_RANGE = "number out of range";

/** Why a JSON value cannot be stored: the words after `<key>: ` in a 400 reason. */
export type UnstorableJson =
  | "recursion limit exceeded"
  | typeof OUT_OF_RANGE
  | `invalid value: ${UnstorableText}`;

/**
 * Why a parsed JSON value cannot be stored as it came, or undefined. JSON.parse takes nesting
 * of any depth but JSON.stringify recurses and overflows the stack on it, so values deeper than
 * {@link MAX_JSON_DEPTH} are refused (the walk itself stops at the limit); JSON.parse reads
 * `1e400` as Infinity, which JSON.stringify would write as null; and a string or object key
 * holding a NUL or a lone surrogate, at any depth, is written as the escape `\u0000` or
 * `\ud800`, which PostgreSQL's jsonb refuses and SQLite keeps: refused on every engine alike.
 * Check before stringifying.
 */
export function unstorableJson(value: unknown, depth = 0): UnstorableJson | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : OUT_OF_RANGE;
  if (typeof value === "string") return invalidText(value);
  if (typeof value !== "object" || value === null) return undefined;
  if (depth >= MAX_JSON_DEPTH) return "recursion limit exceeded";
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = unstorableJson(item, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const problem = invalidText(key) ?? unstorableJson(item, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

function invalidText(text: string): UnstorableJson | undefined {
  const problem = unstorableText(text);
  return problem === undefined ? undefined : `invalid value: ${problem}`;
}
