import type { Field } from "./field.js";

/**
 * Where the values of a `^` field must be distinct. `table` (the default): across every row, as
 * global values such as public slugs need; another user can then learn that a value exists by
 * being refused it. `owner`: within each owner's rows (index on `(user_id, col)`), so one user's
 * value neither blocks another user nor tells them it exists.
 */
export type UniqueScope = "table" | "owner";

/** `defineModel`'s `uniqueScope`: one scope for every `^` field, or a scope per field name. */
export type UniqueScopeOption = UniqueScope | Readonly<Record<string, UniqueScope>>;

/**
 * The fields with `uniqueScope: "owner"` set where `option` asks for it. Names that are not
 * `^` fields are ignored here: check them first with `uniqueScopeProblem`.
 */
export function withUniqueScope(
  fields: readonly Field[],
  option: UniqueScopeOption,
): readonly Field[] {
  const scopeOf = (field: Field) =>
    typeof option === "string" ? option : (option[field.name] ?? "table");
  return fields.map((field) =>
    field.unique && field.type !== "public_id" && scopeOf(field) === "owner"
      ? { ...field, uniqueScope: "owner" as const }
      : field,
  );
}

/**
 * Why a per-field `option` cannot apply to `fields` (a name that is not a field, not `^`, or
 * the public id, which is always unique across the table), or undefined when it can.
 */
export function uniqueScopeProblem(
  fields: readonly Field[],
  option: UniqueScopeOption,
): string | undefined {
  if (typeof option === "string") return undefined;
  for (const name of Object.keys(option)) {
    const field = fields.find((each) => each.name === name);
    if (!field) return `\`${name}\` in uniqueScope is not a field`;
    if (field.type === "public_id") {
      return `\`${name}\` in uniqueScope is always unique across the table`;
    }
    if (!field.unique) return `\`${name}\` in uniqueScope is not unique (\`^\`)`;
  }
  return undefined;
}
