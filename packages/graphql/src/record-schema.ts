import type { RecordContext, RecordRoutesOptions } from "@tessera/records";
import {
  GraphQLBoolean,
  type GraphQLFieldConfigMap,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
} from "graphql";
import { graphqlModel } from "./graphql-model.js";
import { type GraphqlRecord, type ListArguments, recordResolvers } from "./record-resolvers.js";
import { recordTypes } from "./record-types.js";

type Fields = GraphQLFieldConfigMap<unknown, RecordContext>;

/**
 * The GraphQL schema of some record models: per model, the queries `<plural>(limit, offset)`
 * (newest first) and `<singular>(id)` (null when missing or another user's) and the mutations
 * `create<Model>`, `update<Model>` and `delete<Model>`. Each entry takes the options of the
 * JSON record routes (`model`, `store`, `storage` for a model with attachments, ...). The
 * execution context must be the authenticated owner (`{ ownerId }`).
 * @throws {Error} for a model GraphQL cannot serve (see `graphqlModel`), or two models whose
 *   GraphQL names meet.
 */
export function recordSchema(records: readonly RecordRoutesOptions[]): GraphQLSchema {
  const query: Fields = {};
  const mutation: Fields = {};
  const add = (fields: Fields, name: string, config: Fields[string]) => {
    if (Object.hasOwn(fields, name)) throw new Error(`two models are both \`${name}\` in GraphQL`);
    fields[name] = config;
  };
  for (const options of records) {
    const model = graphqlModel(options.model);
    const names = model.graphql;
    const resolve = recordResolvers(model, options);
    const types = recordTypes(model);
    const id = { type: new GraphQLNonNull(GraphQLID) };
    const record = new GraphQLNonNull(types.output);

    add(query, names.list, {
      type: new GraphQLNonNull(new GraphQLList(record)),
      description: `The user's \`${model.table}\`, newest first: \`limit\` 1 to 100 (default 50), \`offset\` 0 or more.`,
      args: { limit: { type: GraphQLInt }, offset: { type: GraphQLInt } },
      resolve: (_root, args: ListArguments, context) => resolve.list(args, context),
    });
    add(query, names.show, {
      type: types.output,
      description: "One of the user's records; null when there is none (another user's included).",
      args: { id },
      resolve: (_root, args: { id: string }, context) => resolve.show(args.id, context),
    });
    add(mutation, names.create, {
      type: record,
      args: { input: { type: new GraphQLNonNull(types.createInput) } },
      resolve: (_root, args: { input: GraphqlRecord }, context) =>
        resolve.create(args.input, context),
    });
    add(mutation, names.update, {
      type: record,
      args: { id, input: { type: new GraphQLNonNull(types.updateInput) } },
      resolve: (_root, args: { id: string; input: GraphqlRecord }, context) =>
        resolve.update(args.id, args.input, context),
    });
    add(mutation, names.delete, {
      type: new GraphQLNonNull(GraphQLBoolean),
      args: { id },
      resolve: (_root, args: { id: string }, context) => resolve.delete(args.id, context),
    });
  }
  if (records.length === 0) throw new Error("a GraphQL schema needs at least one model");
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: "Query", fields: query }),
    mutation: new GraphQLObjectType({ name: "Mutation", fields: mutation }),
  });
}
