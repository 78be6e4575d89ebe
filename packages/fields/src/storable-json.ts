/** Deepest nesting of arrays and objects a JSON value may have: serde_json's limit. */
export const MAX_JSON_DEPTH = 128;

/** serde_json's words for a number too large for its type. */
export const OUT_OF_RANGE = "number out of range";

/**
 * Why a parsed JSON value cannot be stored as it came, or undefined. JSON.parse takes nesting
 * of any depth but JSON.stringify recurses and overflows the stack on it, so values deeper than
 * {@link MAX_JSON_DEPTH} are refused (the walk itself stops at the limit); and JSON.parse reads
 * `1e400` as Infinity, which JSON.stringify would write as null. Check before stringifying.
 */
export function unstorableJson(
  value: unknown,
  depth = 0,
): "recursion limit exceeded" | typeof OUT_OF_RANGE | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : OUT_OF_RANGE;
  if (typeof value !== "object" || value === null) return undefined;
  if (depth >= MAX_JSON_DEPTH) return "recursion limit exceeded";
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    const problem = unstorableJson(item, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}
