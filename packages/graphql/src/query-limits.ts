import { costLimitRule } from "@escape.tech/graphql-armor-cost-limit";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { GraphQLError, type ValidationContext, type ValidationRule } from "graphql";

/** Deepest selection accepted by default: `{ notes { id } }` is 2 deep. */
export const DEFAULT_MAXIMUM_DEPTH = 8;
/** Most fields (and fragments) one operation may select by default, aliases counted apart. */
export const DEFAULT_MAXIMUM_FIELDS = 200;

/** The two limits, as `graphqlRoutes` takes them. */
export interface QueryLimits {
  /** Deepest nesting of selections (default {@link DEFAULT_MAXIMUM_DEPTH}). */
  readonly maximumDepth?: number;
  /** Most selected fields and fragments (default {@link DEFAULT_MAXIMUM_FIELDS}). */
  readonly maximumFields?: number;
}

/**
 * Validation rules that refuse a deep or a wide operation before anything runs, introspection
 * included: `Query depth limit of 8 exceeded, found 9.` (`extensions.code` `QUERY_TOO_DEEP`)
 * and `Query Cost limit of 200 exceeded, found 201.` (`QUERY_TOO_WIDE`).
 */
export function queryLimitRules(limits: QueryLimits = {}): ValidationRule[] {
  return [
    maxDepthRule({
      n: limits.maximumDepth ?? DEFAULT_MAXIMUM_DEPTH,
      // Fragments add no depth of their own: only nested fields make results deeper.
      flattenFragments: true,
      ignoreIntrospection: false,
      propagateOnRejection: false,
      onReject: [reportAs("QUERY_TOO_DEEP")],
    }),
    costLimitRule({
      maxCost: limits.maximumFields ?? DEFAULT_MAXIMUM_FIELDS,
      // Every field costs one, nested or not: the cost is the number of fields selected.
      objectCost: 1,
      scalarCost: 1,
      depthCostFactor: 1,
      flattenFragments: true,
      ignoreIntrospection: false,
      propagateOnRejection: false,
      onReject: [reportAs("QUERY_TOO_WIDE")],
    }),
  ];
}

/**
 * graphql-armor words every refusal as a `Syntax Error:`, which it is not: the operation is
 * reported with the plain message and a code instead.
 */
function reportAs(code: string) {
  return (context: ValidationContext | null, error: GraphQLError) => {
    const message = error.message.replace(/^Syntax Error: /, "");
    context?.reportError(new GraphQLError(message, { extensions: { code } }));
  };
}
