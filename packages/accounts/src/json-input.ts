import { unstorableText } from "@tessera/core";
import { describeJsonValue } from "@tessera/fields/messages";
import { JSON_BODY_FAILURE_PREFIX } from "@tessera/http";

/** A body field that is missing or of the wrong JSON type: the 400 message to answer with. */
export type JsonInputFailure = { readonly ok: false; readonly message: string };

/**
 * Reads required string fields from a parsed JSON object the way a 400 must read (docs/errors.md):
 * a missing key, a non-string value, or text holding a NUL or a lone surrogate (no database
 * stores it alike) is refused before any validation, with the deserialize prefix. Names in
 * `hashedOnly` (passwords) take any text: they are only hashed, never stored nor looked up.
 */
export function requireStrings<const Names extends readonly string[]>(
  body: Record<string, unknown>,
  names: Names,
  options: { readonly hashedOnly?: readonly Names[number][] | undefined } = {},
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
    if (!options.hashedOnly?.includes(name)) {
      const refused = refuseUnstorableText(body, [name]);
      if (refused) return refused;
    }
    value[name] = field;
  }
  return { ok: true, value };
}

/**
 * The 400 for the first of `names` whose value is text holding a NUL or a lone surrogate
 * (`name: invalid value: NUL character in string`), or undefined; other values are left to
 * the fields' own rules. For optional texts such as operator columns.
 */
export function refuseUnstorableText(
  body: Record<string, unknown>,
  names: readonly string[],
): JsonInputFailure | undefined {
  for (const name of names) {
    const field = Object.hasOwn(body, name) ? body[name] : undefined;
    const problem = typeof field === "string" ? unstorableText(field) : undefined;
    if (problem) {
      return {
        ok: false,
        message: `${JSON_BODY_FAILURE_PREFIX}${name}: invalid value: ${problem}`,
      };
    }
  }
  return undefined;
}

/**
 * Reads an optional boolean field the way a 400 must read: absent gives `fallback`; anything
 * but `true` or `false` is refused (`name: invalid type: string "yes", expected a boolean`).
 */
export function optionalBoolean(
  body: Record<string, unknown>,
  name: string,
  fallback: boolean,
): { readonly ok: true; readonly value: boolean } | JsonInputFailure {
  const field = Object.hasOwn(body, name) ? body[name] : undefined;
  if (field === undefined) return { ok: true, value: fallback };
  if (typeof field === "boolean") return { ok: true, value: field };
  return {
    ok: false,
    message: `${JSON_BODY_FAILURE_PREFIX}${name}: invalid type: ${describeJsonValue(field)}, expected a boolean`,
  };
}
