import {
  coerceInputValue,
  GraphQLError,
  type GraphQLSchema,
  isInputType,
  type OperationDefinitionNode,
  typeFromAST,
} from "graphql";

/**
 * How much of a value graphql-js may print in an error: keys and items (of objects and arrays
 * at any depth), and characters of text.
 */
export const DESCRIBED_VALUE_LIMITS = { items: 100, characters: 10_000 } as const;

/**
 * The variables of `operation` that do not fit their types and hold more than
 * {@link DESCRIBED_VALUE_LIMITS}, each refused with its name and type only:
 * `Variable "$input" has invalid value: not of type "NoteCreateInput!", and too large to
 * describe.` graphql-js words every error in a variable with the value printed whole (an
 * object's every key, two levels deep), and finds an error per unknown field: an object of
 * 150,000 unknown fields, 1.5 MB of JSON, took it 20 s of CPU on a busy machine and 84 MB of
 * messages to refuse. A smaller invalid value is left to graphql-js and its detailed words; a
 * valid value of any size passes.
 */
export function undescribableVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  inputs: Readonly<Record<string, unknown>>,
): GraphQLError[] {
  const refused: GraphQLError[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (!Object.hasOwn(inputs, name)) continue;
    const type = typeFromAST(schema, definition.type);
    // An unknown type is the validation's to refuse.
    if (!type || !isInputType(type)) continue;
    const value = inputs[name];
    // Coercion alone prints nothing: it only says whether the value fits.
    if (coerceInputValue(value, type) !== undefined) continue;
    if (fitsDescription(value)) continue;
    refused.push(
      new GraphQLError(
        `Variable "$${name}" has invalid value: not of type "${String(type)}", and too large to describe.`,
        { nodes: definition },
      ),
    );
  }
  return refused;
}

/**
 * True when `value` holds at most the limits. The walk stops as soon as a count goes over, so it
 * costs no more than the limits whatever the value's size, and keeps its own stack.
 */
function fitsDescription(value: unknown): boolean {
  let items = 0;
  let characters = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") {
      characters += next.length;
    } else if (Array.isArray(next)) {
      items += next.length;
      if (items > DESCRIBED_VALUE_LIMITS.items) return false;
      pending.push(...next);
    } else if (typeof next === "object" && next !== null) {
      const keys = Object.keys(next);
      items += keys.length;
      if (items > DESCRIBED_VALUE_LIMITS.items) return false;
      for (const key of keys) {
        characters += key.length;
        pending.push((next as Record<string, unknown>)[key]);
      }
    }
    if (characters > DESCRIBED_VALUE_LIMITS.characters) return false;
  }
  return true;
}
