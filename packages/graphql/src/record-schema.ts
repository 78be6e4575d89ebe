import { ownerKindOf } from "@tessera/fields";
import type { RecordAction, RecordContext, RecordRoutesOptions } from "@tessera/records";
import {
  GraphQLBoolean,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
} from "graphql";
import { type GraphqlModel, graphqlModel } from "./graphql-model.js";
import { type OrganizationOwnerResolver, organizationContext } from "./organization-owner.js";
import { type GraphqlRecord, type ListArguments, recordResolvers } from "./record-resolvers.js";
import { recordTypes } from "./record-types.js";

type Fields = GraphQLFieldConfigMap<unknown, RecordContext>;

/** What {@link recordSchema} takes besides the models. */
export interface RecordSchemaOptions {
  /**
   * Finds the organization an operation on a model with `owner: "organization"` acts for, and
   * refuses a non-member (as for no such organization) or a role without the permission:
   * `resolveOrganizationRecordOwner(access)` of `@tessera/organizations/routes`. Required as
   * soon as one such model is served.
   */
  readonly organizationOwner?: OrganizationOwnerResolver | undefined;
}

/** The `organization` argument of an organization's model's every operation. */
interface InOrganization {
  readonly organization: string;
}

/**
 * The GraphQL schema of some record models: per model, the queries `<plural>(limit, offset)`
 * (newest first) and `<singular>(id)` (null when missing or another user's) and the mutations
 * `create<Model>`, `update<Model>` and `delete<Model>`. Each entry takes the options of the
 * JSON record routes (`model`, `store`, `storage` for a model with attachments, ...). The
 * execution context must be the authenticated user as owner (`{ ownerId }`).
 *
 * A model owned by an organization (`owner: "organization"`) takes the organization's slug as
 * the first argument of each of them (`projects(organization: String!, limit, offset)`,
 * `createProject(organization: String!, input)`, ...), and each operation asks
 * `organizationOwner` first whether the user may do it there: a non-member's answer is a
 * missing organization's `not_found`, a role without the permission `forbidden`.
 * @throws {Error} for a model GraphQL cannot serve (see `graphqlModel`), or two models whose
 *   GraphQL names meet.
 * @throws {TypeError} for a model owned by an organization without `organizationOwner`: its
 *   records are never served unscoped.
 */
export function recordSchema(
  records: readonly RecordRoutesOptions[],
  options: RecordSchemaOptions = {},
): GraphQLSchema {
  const query: Fields = {};
  const mutation: Fields = {};
  const add = (fields: Fields, name: string, config: Fields[string]) => {
    if (Object.hasOwn(fields, name)) throw new Error(`two models are both \`${name}\` in GraphQL`);
    fields[name] = config;
  };
  for (const entry of records) {
    const model = graphqlModel(entry.model);
    const operations =
      ownerKindOf(model) === "organization"
        ? organizationOperations(model, entry, organizationOwnerOf(model, options))
        : userOperations(model, entry);
    for (const [name, config] of Object.entries(operations.query)) add(query, name, config);
    for (const [name, config] of Object.entries(operations.mutation)) add(mutation, name, config);
  }
  if (records.length === 0) throw new Error("a GraphQL schema needs at least one model");
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: "Query", fields: query }),
    mutation: new GraphQLObjectType({ name: "Mutation", fields: mutation }),
  });
}

/** The queries and mutations of one model. */
interface Operations {
  readonly query: Fields;
  readonly mutation: Fields;
}

/** The five field types of a model, with their arguments and descriptions. */
function operationFields(model: GraphqlModel, extraArgs: GraphQLFieldConfigArgumentMap) {
  const types = recordTypes(model);
  const id = { type: new GraphQLNonNull(GraphQLID) };
  const record = new GraphQLNonNull(types.output);
  return {
    list: {
      type: new GraphQLNonNull(new GraphQLList(record)),
      args: { ...extraArgs, limit: { type: GraphQLInt }, offset: { type: GraphQLInt } },
    },
    show: { type: types.output, args: { ...extraArgs, id } },
    create: {
      type: record,
      args: { ...extraArgs, input: { type: new GraphQLNonNull(types.createInput) } },
    },
    update: {
      type: record,
      args: { ...extraArgs, id, input: { type: new GraphQLNonNull(types.updateInput) } },
    },
    delete: { type: new GraphQLNonNull(GraphQLBoolean), args: { ...extraArgs, id } },
  };
}

/** A user's model: every operation acts for the signed-in user, the context's owner. */
function userOperations(model: GraphqlModel, options: RecordRoutesOptions): Operations {
  const names = model.graphql;
  const resolve = recordResolvers(model, options);
  const fields = operationFields(model, {});
  return {
    query: {
      [names.list]: {
        ...fields.list,
        description: `The user's \`${model.table}\`, newest first: \`limit\` 1 to 100 (default 50), \`offset\` 0 or more.`,
        resolve: (_root, args: ListArguments, context) => resolve.list(args, context),
      },
      [names.show]: {
        ...fields.show,
        description:
          "One of the user's records; null when there is none (another user's included).",
        resolve: (_root, args: { id: string }, context) => resolve.show(args.id, context),
      },
    },
    mutation: {
      [names.create]: {
        ...fields.create,
        resolve: (_root, args: { input: GraphqlRecord }, context) =>
          resolve.create(args.input, context),
      },
      [names.update]: {
        ...fields.update,
        resolve: (_root, args: { id: string; input: GraphqlRecord }, context) =>
          resolve.update(args.id, args.input, context),
      },
      [names.delete]: {
        ...fields.delete,
        resolve: (_root, args: { id: string }, context) => resolve.delete(args.id, context),
      },
    },
  };
}

/**
 * An organization's model: every operation names the organization by its slug, and acts for it
 * once `organizationOwner` let the signed-in user do the operation's action there.
 */
function organizationOperations(
  model: GraphqlModel,
  options: RecordRoutesOptions,
  organizationOwner: OrganizationOwnerResolver,
): Operations {
  const names = model.graphql;
  const resolve = recordResolvers(model, options);
  const fields = operationFields(model, {
    organization: {
      type: new GraphQLNonNull(GraphQLString),
      description: "The organization's slug.",
    },
  });
  const within = (action: RecordAction, args: InOrganization, context: RecordContext) =>
    organizationContext(organizationOwner, model, action, args.organization, context);
  return {
    query: {
      [names.list]: {
        ...fields.list,
        description: `The organization's \`${model.table}\`, newest first: \`limit\` 1 to 100 (default 50), \`offset\` 0 or more.`,
        resolve: async (_root, args: InOrganization & ListArguments, context) =>
          resolve.list(args, await within("read", args, context)),
      },
      [names.show]: {
        ...fields.show,
        description:
          "One of the organization's records; null when there is none (another organization's included).",
        resolve: async (_root, args: InOrganization & { id: string }, context) =>
          resolve.show(args.id, await within("read", args, context)),
      },
    },
    mutation: {
      [names.create]: {
        ...fields.create,
        resolve: async (_root, args: InOrganization & { input: GraphqlRecord }, context) =>
          resolve.create(args.input, await within("create", args, context)),
      },
      [names.update]: {
        ...fields.update,
        resolve: async (
          _root,
          args: InOrganization & { id: string; input: GraphqlRecord },
          context,
        ) => resolve.update(args.id, args.input, await within("update", args, context)),
      },
      [names.delete]: {
        ...fields.delete,
        resolve: async (_root, args: InOrganization & { id: string }, context) =>
          resolve.delete(args.id, await within("delete", args, context)),
      },
    },
  };
}

/** The resolver an organization's model needs; refusing to build the schema without one. */
function organizationOwnerOf(
  model: GraphqlModel,
  options: RecordSchemaOptions,
): OrganizationOwnerResolver {
  if (options.organizationOwner === undefined) {
    throw new TypeError(
      `model ${model.name} belongs to organizations: pass \`organizationOwner\` (resolveOrganizationRecordOwner of @tessera/organizations/routes) to serve it through GraphQL`,
    );
  }
  return options.organizationOwner;
}
