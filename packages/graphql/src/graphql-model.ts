import { camelize, type Field, type Model, ownerKindOf, refuse } from "@tessera/fields";

/**
 * How a column travels in GraphQL: which scalar carries it, or `Enum` for an enum field (a
 * GraphQL enum of its values, named by the column's `enumType`).
 */
export type GraphqlScalarKind =
  | "String"
  | "SafeInt"
  | "Int"
  | "Float"
  | "Boolean"
  | "JSON"
  | "ID"
  | "Enum";

/** One column of a record as a GraphQL field: `due_on` → `dueOn: String`. */
export interface GraphqlColumn {
  /** The camelCase GraphQL name. */
  readonly name: string;
  /** The column it reads and writes, also the key the JSON API uses. */
  readonly column: string;
  readonly kind: GraphqlScalarKind;
  /** Null allowed: an optional field (every update input is nullable regardless). */
  readonly nullable: boolean;
  /**
   * The declared field the column belongs to (undefined for `id`, the owner's columns and the
   * timestamps).
   */
  readonly field?: Field | undefined;
  /** The GraphQL enum of an enum field's values (kind `Enum`): `ProjectStatus`. */
  readonly enumType?: string | undefined;
}

/** The GraphQL names of one model's type, inputs, queries and mutations. */
export interface GraphqlNames {
  /** `Note` */
  readonly type: string;
  /** `NoteCreateInput` */
  readonly createInput: string;
  /** `NoteUpdateInput` */
  readonly updateInput: string;
  /** `notes(limit, offset)` */
  readonly list: string;
  /** `note(id)` */
  readonly show: string;
  /** `createNote(input)` */
  readonly create: string;
  /** `updateNote(id, input)` */
  readonly update: string;
  /** `deleteNote(id)` */
  readonly delete: string;
  /**
   * Output columns in the JSON API's order: `id`, the owner's (`userId`, or `organizationId`
   * and `createdBy`), the fields, then the timestamps.
   */
  readonly output: readonly GraphqlColumn[];
  /** Input columns: the fields a body may carry (no attachments), and `lockVersion`. */
  readonly input: readonly GraphqlColumn[];
}

/** A model checked for GraphQL, with its GraphQL names; still a {@link Model} everywhere else. */
export interface GraphqlModel extends Model {
  readonly graphql: GraphqlNames;
}

const KIND_OF: Partial<Record<Field["type"], GraphqlScalarKind>> = {
  integer: "SafeInt",
  float: "Float",
  boolean: "Boolean",
  json: "JSON",
  references: "ID",
  lock_version: "Int",
};

/** Words GraphQL keeps for itself, which an enum value may not be. */
const RESERVED_ENUM_VALUES = new Set(["true", "false", "null"]);

/**
 * Checks that a model can be served through GraphQL and names its GraphQL parts. A public id
 * is refused with the declaration error of `@tessera/fields` (`not supported with GraphQL`), as
 * the generator's `--graphql` refuses it; attachments are left out, not refused; an enum
 * becomes a GraphQL enum of its values (`<Model><Field>`: `ProjectStatus`). A model owned by
 * an organization has `organizationId` and `createdBy` where a user's has `userId`.
 * Calling it on a model it already returned gives that model back.
 * @throws {Error} `model <name>: <message> (<hint>)` for a refused field, an enum value GraphQL
 *   keeps for itself (`true`, `false`, `null`), or two names that camelCase alike.
 */
export function graphqlModel(model: Model): GraphqlModel {
  if (isGraphqlModel(model)) return model;
  for (const field of model.fields) {
    if (field.type === "public_id") {
      const refusal = refuse.graphql(field.declaration, field.name, field.type);
      throw new Error(`model ${model.name}: ${refusal.reason} (${refusal.hint})`);
    }
    const reserved =
      field.type === "enum" && field.args.find((value) => RESERVED_ENUM_VALUES.has(value));
    if (reserved) {
      throw new Error(
        `model ${model.name}: enum \`${field.name}\` has the value \`${reserved}\`, which GraphQL cannot name (rename the value, or serve the model without GraphQL)`,
      );
    }
  }
  const type = pascalize(model.name);
  const fieldColumns = model.fields.flatMap((field) => columnsOf(field, type));
  const output: GraphqlColumn[] = [
    { name: "id", column: "id", kind: "ID", nullable: false },
    ...ownerColumns(model),
    ...fieldColumns,
    { name: "createdAt", column: "created_at", kind: "String", nullable: false },
    { name: "updatedAt", column: "updated_at", kind: "String", nullable: false },
  ];
  assertDistinct(model, output);
  const list = camelize(model.table);
  const show = camelize(model.name);
  if (list === show) {
    throw new Error(
      `model ${model.name}: its table \`${model.table}\` and its name give the same GraphQL query \`${show}\` (pass a plural table name)`,
    );
  }
  const graphql: GraphqlNames = {
    type,
    createInput: `${type}CreateInput`,
    updateInput: `${type}UpdateInput`,
    list,
    show,
    create: `create${type}`,
    update: `update${type}`,
    delete: `delete${type}`,
    output,
    input: fieldColumns,
  };
  return { ...model, graphql };
}

/** `userId`; or `organizationId` and `createdBy` (null once its author's account is gone). */
function ownerColumns(model: Model): GraphqlColumn[] {
  if (ownerKindOf(model) === "user") {
    return [{ name: "userId", column: "user_id", kind: "ID", nullable: false }];
  }
  return [
    { name: "organizationId", column: "organization_id", kind: "ID", nullable: false },
    { name: "createdBy", column: "created_by", kind: "ID", nullable: true },
  ];
}

function isGraphqlModel(model: Model): model is GraphqlModel {
  return "graphql" in model;
}

/** `blog_entry` → `BlogEntry`. */
function pascalize(name: string): string {
  const camel = camelize(name);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

/** The GraphQL columns of a field; attachments have none (files keep their own routes). */
function columnsOf(field: Field, type: string): GraphqlColumn[] {
  if (field.type === "attachment" || field.type === "attachments") return [];
  if (field.type === "polymorphic") {
    const [typeColumn, idColumn] = field.columns as readonly [string, string];
    return [
      {
        name: camelize(typeColumn),
        column: typeColumn,
        kind: "String",
        nullable: field.optional,
        field,
      },
      { name: camelize(idColumn), column: idColumn, kind: "ID", nullable: field.optional, field },
    ];
  }
  const column = field.columns[0]!;
  if (field.type === "enum") {
    const enumType = `${type}${pascalize(field.name)}`;
    return [
      { name: camelize(column), column, kind: "Enum", nullable: field.optional, field, enumType },
    ];
  }
  return [
    {
      name: camelize(column),
      column,
      kind: KIND_OF[field.type] ?? "String",
      nullable: field.optional,
      field,
    },
  ];
}

function assertDistinct(model: Model, columns: readonly GraphqlColumn[]): void {
  const seen = new Map<string, string>();
  for (const { name, column } of columns) {
    const other = seen.get(name);
    if (other !== undefined) {
      throw new Error(
        `model ${model.name}: columns \`${other}\` and \`${column}\` are both \`${name}\` in GraphQL (rename one)`,
      );
    }
    seen.set(name, column);
  }
}
