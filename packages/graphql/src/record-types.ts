import { ownerKindOf } from "@tessera/fields";
import {
  GraphQLBoolean,
  GraphQLEnumType,
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
const SCALARS: Readonly<Record<Exclude<GraphqlScalarKind, "Enum">, GraphQLScalarType>> = {
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
  const typeOf = columnTypes(model);
  const whose =
    ownerKindOf(model) === "organization" ? "of an organization" : "of the signed-in user";
  const output = new GraphQLObjectType({
    name: names.type,
    description: `A \`${model.name}\` record (table \`${model.table}\`) ${whose}.`,
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
      typeOf,
      names.createInput,
      `The fields of a new \`${model.name}\`: a required one must be there; a boolean left out is false, another optional one null.`,
      // The version starts at 0: a create does not take one.
      names.input.filter((column) => column.field?.type !== "lock_version"),
      (column) => column.nullable || column.field?.type === "boolean",
    ),
    updateInput: inputType(
      typeOf,
      names.updateInput,
      `The fields to change on a \`${model.name}\`: a field left out keeps its value, null clears an optional one; \`lockVersion\`, when sent, must equal the stored one.`,
      names.input,
      () => true,
    ),
  };
}

/** The GraphQL type of a column, nullable or not: a scalar or an enum, either way both ways. */
type ColumnType = (
  column: GraphqlColumn,
  nullable: boolean,
) => ColumnNamedType | GraphQLNonNull<ColumnNamedType>;
type ColumnNamedType = GraphQLScalarType | GraphQLEnumType;

function inputType(
  typeOf: ColumnType,
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

/**
 * The types of a model's columns: a scalar, or for an enum field the one GraphQL enum of its
 * values that the record and both inputs share (a schema holds one type of a name).
 */
function columnTypes(model: GraphqlModel): ColumnType {
  const enums = new Map<string, GraphQLEnumType>();
  for (const { kind, field, enumType } of model.graphql.output) {
    if (kind !== "Enum" || field === undefined || enumType === undefined) continue;
    const values = Object.fromEntries(field.args.map((value) => [value, { value }]));
    enums.set(
      enumType,
      new GraphQLEnumType({
        name: enumType,
        description: `The values of \`${field.name}\` on a \`${model.name}\`.`,
        values,
      }),
    );
  }
  return (column, nullable) => {
    const named = column.kind === "Enum" ? enums.get(column.enumType ?? "") : SCALARS[column.kind];
    if (named === undefined) throw new Error(`no GraphQL type for \`${column.name}\``);
    return nullable ? named : new GraphQLNonNull(named);
  };
}
