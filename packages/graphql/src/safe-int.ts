import { GraphQLError, GraphQLScalarType } from "graphql";
import { GraphQLSafeInt } from "graphql-scalars";

/**
 * A variable's value as `SafeInt` takes it: an array or object is refused by its kind, since the
 * original words it as the text it makes (`[[[1]]]` says `1`, an object `[object Object]`).
 */
function coerceVariable(value: unknown): number {
  if (typeof value === "object" && value !== null) {
    const kind = Array.isArray(value) ? "an array" : "an object";
    throw new GraphQLError(`SafeInt cannot represent non-integer value: ${kind}`);
  }
  return GraphQLSafeInt.parseValue(value) as number;
}

/**
 * graphql-scalars' `SafeInt` (whole numbers within ±(2^53 - 1), in literals and variables), with
 * arrays and objects given as variables refused by their kind.
 */
export const SafeInt = new GraphQLScalarType({
  ...GraphQLSafeInt.toConfig(),
  // graphql 17 coerces variables with coerceInputValue; parseValue is its older name.
  parseValue: coerceVariable,
  coerceInputValue: coerceVariable,
});
