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
 * a refused variable is worded as graphql-js words it. An operation that does not compile runs
 * (or throws) runs through graphql-js, whose errors are the answer.
 */
export function compiledExecute(
  compile: CompileQuery,
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
      entry = compileOperation(compile, args);
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

function compileOperation(compile: CompileQuery, args: ExecutionArgs): Compiled | null {
  const definition = getOperationAST(args.document, args.operationName);
  if (!definition) return null;
  let outcome: CompiledOperation | ExecutionResult;
  try {
    outcome = compile(args.schema, args.document, args.operationName ?? undefined);
  } catch {
    // A compiler that throws on an operation graphql-js validated: graphql-js runs it instead.
    return null;
  }
  return "query" in outcome ? { definition, operation: outcome } : null;
}
