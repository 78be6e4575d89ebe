import {
  GraphQLBoolean,
  type GraphQLFieldConfigMap,
  GraphQLFloat,
  GraphQLID,
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLScalarType,
  GraphQLString,
} from "graphql";
import { GraphQLJSON } from "graphql-scalars";
import type { GraphqlColumn, GraphqlModel, GraphqlScalarKind } from "./graphql-model.js";
import { SafeInt } from "./safe-int.js";

/** The GraphQL types of one model: its object type and its two input types. */
export interface RecordTypes {
  readonly output: GraphQLObjectType;
  readonly createInput: GraphQLInputObjectType;
  readonly updateInput: GraphQLInputObjectType;
}

// SafeInt refuses any number outside ±(2^53 - 1) and any fraction, in literals and variables
// alike; graphql-scalars' JSON takes any JSON value.
const SCALARS: Readonly<Record<GraphqlScalarKind, GraphQLScalarType>> = {
  String: GraphQLString,
  SafeInt,
  Int: GraphQLInt,
  Float: GraphQLFloat,
  Boolean: GraphQLBoolean,
  JSON: GraphQLJSON,
  ID: GraphQLID,
};

/** The object type and inputs of a model, typed as its declarations say. */
export function recordTypes(model: GraphqlModel): RecordTypes {
  const names = model.graphql;
  const output = new GraphQLObjectType({
    name: names.type,
    description: `A \`${model.name}\` record (table \`${model.table}\`) of the signed-in user.`,
    fields: () => {
      const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
      for (const column of names.output) {
        fields[column.name] = { type: typeOf(column, column.nullable) };
      }
      return fields;
    },
  });
  return {
    output,
    createInput: inputType(
      names.createInput,
      `The fields of a new \`${model.name}\`: a required one must be there; a boolean left out is false, another optional one null.`,
      // The version starts at 0: a create does not take one.
      names.input.filter((column) => column.field?.type !== "lock_version"),
      (column) => column.nullable || column.field?.type === "boolean",
    ),
    updateInput: inputType(
      names.updateInput,
      `The fields to change on a \`${model.name}\`: a field left out keeps its value, null clears an optional one; \`lockVersion\`, when sent, must equal the stored one.`,
      names.input,
      () => true,
    ),
  };
}

function inputType(
  name: string,
  description: string,
  columns: readonly GraphqlColumn[],
  nullable: (column: GraphqlColumn) => boolean,
): GraphQLInputObjectType {
  return new GraphQLInputObjectType({
    name,
    description,
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = {};
      for (const column of columns)
        fields[column.name] = { type: typeOf(column, nullable(column)) };
      return fields;
    },
  });
}

function typeOf(column: GraphqlColumn, nullable: boolean) {
  const scalar = SCALARS[column.kind];
  return nullable ? scalar : new GraphQLNonNull(scalar);
}
