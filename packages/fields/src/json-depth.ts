/** Deepest nesting of arrays and objects a JSON value may have: serde_json's limit. */
export const MAX_JSON_DEPTH = 128;

/**
 * True when `value` nests arrays and objects deeper than {@link MAX_JSON_DEPTH}. JSON.parse
 * takes nesting of any depth, but JSON.stringify recurses and overflows the stack on it, so
 * check a parsed value with this before stringifying it. The walk itself stops at the limit.
 */
export function nestsTooDeep(value: unknown): boolean {
  return deeperThanLimit(value, 0);
}

function deeperThanLimit(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (depth >= MAX_JSON_DEPTH) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    if (deeperThanLimit(item, depth + 1)) return true;
  }
  return false;
}
