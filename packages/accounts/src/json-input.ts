import { describeJsonValue } from "@tessera/fields/messages";
import { JSON_BODY_FAILURE_PREFIX } from "@tessera/http";

/** A body field that is missing or of the wrong JSON type: the 400 message to answer with. */
export type JsonInputFailure = { readonly ok: false; readonly message: string };

/**
 * Reads required string fields from a parsed JSON object the way a 400 must read (docs/errors.md):
 * a missing key or a non-string value is refused before any validation, with the deserialize prefix.
 */
export function requireStrings<const Names extends readonly string[]>(
  body: Record<string, unknown>,
  names: Names,
): { readonly ok: true; readonly value: Record<Names[number], string> } | JsonInputFailure {
  const value = {} as Record<Names[number], string>;
  for (const name of names as readonly Names[number][]) {
    const field = Object.hasOwn(body, name) ? body[name] : undefined;
    if (field === undefined) {
      return { ok: false, message: `${JSON_BODY_FAILURE_PREFIX}missing field \`${name}\`` };
    }
    if (typeof field !== "string") {
      return {
        ok: false,
        message: `${JSON_BODY_FAILURE_PREFIX}${name}: invalid type: ${describeJsonValue(field)}, expected a string`,
      };
    }
    value[name] = field;
  }
  return { ok: true, value };
}
