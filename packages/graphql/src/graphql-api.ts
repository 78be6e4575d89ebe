import {
  type Authenticate,
  authenticated,
  jsonError,
  type Route,
  type RouteContext,
  type RouteHandler,
  readJsonBody,
  withMiddleware,
} from "@tessera/http";
import type { RecordContext, RecordRoutesOptions, RecordUser } from "@tessera/records";
import { type ExecutionArgs, execute, GraphQLError, getOperationAST } from "graphql";
import { createHandler } from "graphql-http";
import { type CompileQuery, compiledExecute } from "./compiled-execution.js";
import { documentCache } from "./document-cache.js";
import { type DocumentLimits, parseWithinLimits } from "./document-limits.js";
import { DEFAULT_MAXIMUM_GRAPHQL_BODY_BYTES } from "./graphql-body-limit.js";
import { graphqlHttpResponse } from "./http-answer.js";
import { successfulOperationAnswer } from "./operation-answer.js";
import { type QueryLimits, queryLimitRules } from "./query-limits.js";
import { type RecordSchemaOptions, recordSchema } from "./record-schema.js";
import { undescribableVariables } from "./variable-refusals.js";

/** What {@link graphqlRoutes} is built from. */
export interface GraphqlRoutesOptions extends QueryLimits, DocumentLimits, RecordSchemaOptions {
  /**
   * The models to serve, each with the options its JSON record routes take (its `scope` aside:
   * a model owned by an organization is served for the organization `organizationOwner` finds).
   */
  readonly records: readonly RecordRoutesOptions[];
  /**
   * Who a request acts for, as the JSON record routes take it (`bearerAuthentication`); its
   * refusal (a 401 with `WWW-Authenticate: Bearer`) is the answer. Runs before the body is read.
   */
  readonly authenticate: Authenticate<RecordUser>;
  /** Where the endpoint answers; default `/graphql`. */
  readonly path?: string | undefined;
  /**
   * Largest request body in bytes, variables included: default
   * {@link DEFAULT_MAXIMUM_GRAPHQL_BODY_BYTES} (128 KiB). A larger body is a 413, refused as it
   * is read. Raise it to send large text values in `variables`; the JSON record API takes them
   * up to its 4 MiB.
   */
  readonly maximumBodyBytes?: number | undefined;
  /**
   * Characters of operation text kept parsed and validated (default 1 MiB worth): repeated
   * operations skip both steps.
   */
  readonly documentCacheCharacters?: number | undefined;
  /**
   * Compiles each operation to a function once, then runs that instead of graphql-js's
   * interpreter: pass graphql-jit's `compileQuery`. A list of 50 records of 12 fields then runs
   * in about a tenth of the time. Leave it out where code may not be generated at run time
   * (Cloudflare Workers, a strict Content-Security-Policy): graphql-jit needs `new Function`.
   */
  readonly compileQuery?: CompileQuery | undefined;
  /**
   * Called with an error a resolver threw that is not a GraphQL error (a database failure, a
   * bug); the client sees only `Internal server error`. Default: one line on stderr.
   */
  readonly onError?: ((error: unknown) => void) | undefined;
  /**
   * Called when `compileQuery` fails on an operation graphql-js accepts, which then runs
   * interpreted, several times slower; with why. Default: one line on stderr, the first time
   * only. graphql-jit fails on every operation with an argument when it got a second copy of
   * the graphql package (a loader that gives CommonJS packages their own): the line says so.
   */
  readonly onNotCompiled?: ((reason: unknown) => void) | undefined;
}

/** The message a client gets for an unexpected failure, whose details stay in the logs. */
export const INTERNAL_ERROR_MESSAGE = "Internal server error";

/**
 * Serves record models as GraphQL with graphql-http (GraphQL over HTTP) at `POST /graphql`
 * (and `GET` for queries). The request is authenticated first (its refusal is the answer), then its body is read as the JSON API
 * reads one (its 400s for a body that is not a JSON object), up to its own far smaller cap (a
 * 413 beyond it, answered without reading the rest). Every
 * operation text is held to its size, token and nesting limits before it is parsed, and its
 * document to the depth and field limits before anything runs. Errors a resolver refuses with
 * carry `extensions.code` and `extensions.status`; the HTTP status of a response that has data
 * stays 200, as GraphQL over HTTP asks. A model owned by an organization is served to its
 * members through `organizationOwner` (see {@link recordSchema}).
 * @throws {TypeError} for a model owned by an organization when `organizationOwner` is missing.
 *
 * @example
 * ```ts
 * import { accountRoutes } from "@tessera/accounts";
 * import { sqlAccountStores } from "@tessera/accounts/sql";
 * import { bearerAuthentication } from "@tessera/bearer";
 * import { defineModel } from "@tessera/fields";
 * import { graphqlModel, graphqlRoutes } from "@tessera/graphql";
 * import { SqlRecordStore } from "@tessera/records/sql";
 * import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
 *
 * const database = openSqliteFile("data/app.db");
 * const accounts = accountRoutes({ ...sqlAccountStores(database), secretKeyBase: process.env.SECRET_KEY_BASE! });
 * const note = graphqlModel(defineModel("note", ["title:string", "done:boolean"]));
 * const routes = graphqlRoutes({
 *   records: [{ model: note, store: new SqlRecordStore(database, note) }],
 *   authenticate: bearerAuthentication(accounts.bearer),
 * }); // POST /graphql: `{ notes { id title } }` lists the bearer's notes
 * ```
 */
export function graphqlRoutes(options: GraphqlRoutesOptions): Route[] {
  const schema = recordSchema(options.records, options);
  const report =
    options.onError ??
    ((error: unknown) =>
      console.error(`GraphQL resolver failed: ${(error as Error)?.stack ?? error}`));
  const cache = documentCache({
    ...(options.documentCacheCharacters === undefined
      ? {}
      : { maximumCharacters: options.documentCacheCharacters }),
    parse: parseWithinLimits(options),
    limitRules: queryLimitRules(options),
  });
  const run = options.compileQuery
    ? compiledExecute(options.compileQuery, options.onNotCompiled)
    : execute;
  // A mapped type: graphql-http wants a context with an index signature, an interface has none.
  const handler = createHandler<Request, RecordContext, Pick<RecordContext, "ownerId" | "locale">>({
    schema,
    parse: (source) => cache.parse(typeof source === "string" ? source : source.body),
    // graphql-http passes graphql's specified rules; the cache runs the limits before them.
    validate: (schema, document, specifiedRules) =>
      cache.validate(schema, document, specifiedRules),
    context: (request) => request.context,
    execute(args: ExecutionArgs) {
      const operation = getOperationAST(args.document, args.operationName);
      const refused = operation
        ? undescribableVariables(args.schema, operation, args.variableValues ?? {})
        : [];
      return refused.length > 0 ? { errors: refused } : run(args);
    },
    onOperation: (request, _args, result) =>
      successfulOperationAnswer(request.raw.headers.get("accept"), result),
    formatError(error) {
      // A request error ("Missing query") is no GraphQLError and is shown as it is; a
      // resolver's error has a path, and is a GraphQL error only when we threw one on purpose.
      if (!(error instanceof GraphQLError) || error.path === undefined) return error;
      const original = error.originalError;
      if (original === undefined || original instanceof GraphQLError) return error;
      report(original);
      return new GraphQLError(INTERNAL_ERROR_MESSAGE, {
        ...(error.nodes ? { nodes: error.nodes } : {}),
        path: error.path,
        extensions: { code: "internal_error", status: 500 },
      });
    },
  });

  const handle: RouteHandler<RouteContext & RecordUser> = async (request, { user, locale }) => {
    const context: RecordContext = { ownerId: user.id, ...(locale ? { locale } : {}) };
    let body: Record<string, unknown> | null = null;
    if (request.method === "POST") {
      const maximumBytes = options.maximumBodyBytes ?? DEFAULT_MAXIMUM_GRAPHQL_BODY_BYTES;
      const read = await readJsonBody(request, { maximumBytes });
      if (!read.ok) {
        // Over the cap is no malformed body but one too large to take: a 413, as webhooks answer.
        return read.reason === "too-large"
          ? jsonError(413, `Request body is too large (maximum is ${maximumBytes} bytes)`)
          : read.response;
      }
      body = read.value;
    }
    const answer = await handler({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body,
      raw: request,
      context,
    });
    return graphqlHttpResponse(answer, locale);
  };
  const path = options.path ?? "/graphql";
  return withMiddleware(
    [
      { method: "POST", path, handle },
      // Queries may come as GET (GraphQL over HTTP); a mutation sent so is a 405.
      { method: "GET", path, handle },
    ],
    authenticated(options.authenticate),
  );
}
