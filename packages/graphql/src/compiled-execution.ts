import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  type OperationDefinitionNode,
} from "graphql";

/** An operation compiled to a function, as graphql-jit's `compileQuery` gives one. */
export interface CompiledOperation {
  query(
    root: unknown,
    context: unknown,
    variables: Readonly<Record<string, unknown>> | null | undefined,
  ): ExecutionResult | Promise<ExecutionResult>;
}

/**
 * graphql-jit's `compileQuery`, or any function of its shape: the compiled operation, or an
 * `ExecutionResult` with the errors that kept it from compiling.
 */
export type CompileQuery = (
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string,
) => CompiledOperation | ExecutionResult;

/** An operation of a document, with its compiled function. */
interface Compiled {
  readonly definition: OperationDefinitionNode;
  readonly operation: CompiledOperation;
}

/**
 * An `execute` for graphql-http that runs each operation through `compile`'s function,
 * compiled once per document and operation name and kept as long as the document is (the
 * document cache keeps one per operation text). Variables are coerced by graphql-js first, so
 * a refused variable is worded as graphql-js words it. An operation that does not compile (or
 * whose compilation throws) runs through graphql-js, whose errors are the answer, and
 * `onNotCompiled` hears why, once per operation (default: one line on stderr, the first time).
 */
export function compiledExecute(
  compile: CompileQuery,
  onNotCompiled: (reason: unknown) => void = warnOnceNotCompiled(),
): (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult> {
  const compiled = new WeakMap<DocumentNode, Map<string, Compiled | null>>();
  return (args) => {
    let operations = compiled.get(args.document);
    if (operations === undefined) {
      operations = new Map();
      compiled.set(args.document, operations);
    }
    const name = args.operationName ?? "";
    let entry = operations.get(name);
    if (entry === undefined) {
      entry = compileOperation(compile, args, onNotCompiled);
      operations.set(name, entry);
    }
    if (entry === null) return execute(args);
    const variables = getVariableValues(
      args.schema,
      entry.definition.variableDefinitions ?? [],
      args.variableValues ?? {},
      // As many as graphql-js's execute reports before it stops.
      { maxErrors: 50 },
    );
    if (variables.errors) return { errors: variables.errors };
    return entry.operation.query(
      args.rootValue,
      args.contextValue,
      variables.variableValues.coerced,
    );
  };
}

function compileOperation(
  compile: CompileQuery,
  args: ExecutionArgs,
  onNotCompiled: (reason: unknown) => void,
): Compiled | null {
  const definition = getOperationAST(args.document, args.operationName);
  if (!definition) return null;
  let outcome: CompiledOperation | ExecutionResult;
  try {
    outcome = compile(args.schema, args.document, args.operationName ?? undefined);
  } catch (error) {
    // A compiler that throws on an operation graphql-js validated: graphql-js runs it instead.
    onNotCompiled(error);
    return null;
  }
  if ("query" in outcome) return { definition, operation: outcome };
  onNotCompiled(outcome.errors?.[0] ?? outcome);
  return null;
}

/**
 * One line on stderr, for the first operation that did not compile only: graphql-jit fails on
 * every operation with an argument when it was given a second copy of the graphql package.
 */
function warnOnceNotCompiled(): (reason: unknown) => void {
  let warned = false;
  return (reason) => {
    if (warned) return;
    warned = true;
    const why = reason instanceof Error ? reason.message : JSON.stringify(reason);
    console.warn(
      `GraphQL: compileQuery could not compile an operation, which graphql-js runs instead, ` +
        `more slowly (${why}). Two copies of the graphql package are the usual cause.`,
    );
  };
}
