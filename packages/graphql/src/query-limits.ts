import {
  type ASTVisitor,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from "graphql";

/** Deepest selection accepted by default: `{ notes { id } }` is 2 deep. */
export const DEFAULT_MAXIMUM_DEPTH = 8;
/** Most fields (and fragments) one operation may select by default, aliases counted apart. */
export const DEFAULT_MAXIMUM_FIELDS = 200;

/** The two limits, as `graphqlRoutes` takes them. */
export interface QueryLimits {
  /** Deepest nesting of selections (default {@link DEFAULT_MAXIMUM_DEPTH}). */
  readonly maximumDepth?: number | undefined;
  /** Most selected fields and fragments (default {@link DEFAULT_MAXIMUM_FIELDS}). */
  readonly maximumFields?: number | undefined;
}

/**
 * Validation rules that refuse a deep or a wide operation before anything runs, introspection
 * included: `Query depth limit of 8 exceeded, found 9.` (`extensions.code` `query_too_deep`)
 * and `Query Cost limit of 200 exceeded, found 201.` (`query_too_wide`). Each fragment is
 * measured once per document, so fragments spread within fragments cost linear time however
 * many fields they stand for.
 */
export function queryLimitRules(limits: QueryLimits = {}): ValidationRule[] {
  return [
    limitRule(
      selectionDepth,
      limits.maximumDepth ?? DEFAULT_MAXIMUM_DEPTH,
      "Query depth limit",
      "query_too_deep",
    ),
    limitRule(
      selectionCost,
      limits.maximumFields ?? DEFAULT_MAXIMUM_FIELDS,
      "Query Cost limit",
      "query_too_wide",
    ),
  ];
}

// Written here rather than taken from graphql-armor (whose counts and messages these keep):
// its packages pin graphql 16, which reads NODE_ENV when it loads.

/** A measure of a selection set, given how to measure a named fragment (memoized). */
type Measure = (
  selectionSet: SelectionSetNode,
  fragment: (name: string) => number | undefined,
) => number;

function limitRule(measure: Measure, maximum: number, limit: string, code: string): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const fragment = memoizedFragments(context, measure);
    return {
      OperationDefinition(operation) {
        const found = measure(operation.selectionSet, fragment);
        if (found > maximum) {
          context.reportError(
            new GraphQLError(`${limit} of ${maximum} exceeded, found ${found}.`, {
              extensions: { code },
            }),
          );
        }
      },
    };
  };
}

/**
 * A fragment's measure, computed on its first spread and kept for the document. A spread of a
 * fragment still being measured (a cycle, which graphql's own rules refuse) counts nothing.
 */
function memoizedFragments(context: ValidationContext, measure: Measure) {
  const measured = new Map<string, number>();
  const fragment = (name: string): number | undefined => {
    const known = measured.get(name);
    if (known !== undefined) return known;
    const definition: FragmentDefinitionNode | null | undefined = context.getFragment(name);
    if (!definition) return undefined;
    measured.set(name, 0);
    const value = measure(definition.selectionSet, fragment);
    measured.set(name, value);
    return value;
  };
  return fragment;
}

/** How deep a selection set reaches: one per field with a selection; fragments add nothing. */
function selectionDepth(
  selectionSet: SelectionSetNode,
  fragment: (name: string) => number | undefined,
): number {
  let deepest = 0;
  for (const selection of selectionSet.selections) {
    let depth: number;
    if (selection.kind === Kind.FIELD) {
      depth = 1 + (selection.selectionSet ? selectionDepth(selection.selectionSet, fragment) : 0);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      depth = selectionDepth(selection.selectionSet, fragment);
    } else {
      depth = fragment(selection.name.value) ?? 0;
    }
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/**
 * What a selection set costs: one per field, one more per inline fragment, and two per spread
 * (the spread and its fragment's selection), plus everything they select.
 */
function selectionCost(
  selectionSet: SelectionSetNode,
  fragment: (name: string) => number | undefined,
): number {
  let cost = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      cost += 1 + (selection.selectionSet ? selectionCost(selection.selectionSet, fragment) : 0);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      cost += 1 + selectionCost(selection.selectionSet, fragment);
    } else {
      const spread = fragment(selection.name.value);
      cost += 1 + (spread === undefined ? 0 : 1 + spread);
    }
  }
  return cost;
}
