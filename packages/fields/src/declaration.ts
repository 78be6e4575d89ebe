import { closestName } from "./closest-type.js";
import { type DeclarationRefusal, refuse } from "./declaration-errors.js";
import { decodeJsonCreate, decodeJsonUpdate } from "./decode-json.js";
import { attachmentColumns, type Field, type FieldType, SNAKE_CASE } from "./field.js";
import type { CheckedList, CheckedString } from "./infer/check.js";
import { pluralize } from "./inflection.js";
import { type ModelEventsOption, modelEventActions } from "./model-events.js";
import { ownerColumnsOf, RECORD_OWNER_KINDS, type RecordOwnerKind } from "./record-owner.js";
import { RESERVED_NAMES } from "./reserved-names.js";
import { type RichTextSanitizer, withRichText } from "./rich-text.js";
import { jsonBodySchema } from "./standard-schema.js";
import { TYPE_WORDS, typeOfWord } from "./type-aliases.js";
import type {
  CreateInputOf,
  DefinedModel,
  RecordOf,
  TypesOf,
  UpdateInputOf,
} from "./typed-model.js";
import { type UniqueScopeOption, uniqueScopeProblem, withUniqueScope } from "./unique-scope.js";

/**
 * Types that have no value the rows already in a table could be given when the field is added
 * as required: a reference or a file must be real, and no date, time, uuid or public id is
 * right for every row. (A string gets `''`, a number 0, a json `{}`; booleans and enums have
 * their defaults.)
 */
const NO_VALUE_FOR_EXISTING_ROWS: ReadonlySet<FieldType> = new Set([
  "references",
  "attachment",
  "polymorphic",
  "date",
  "datetime",
  "time",
  "uuid",
  "public_id",
]);

/** What the parser needs to know about the app around a declaration; every key is optional. */
export interface DeclarationContext {
  /** Models that exist (`references` and `polymorphic` targets). Leave out to skip the check. */
  readonly models?: readonly string[] | undefined;
  /** The records get a JSON API (default true): a single attachment must then be optional. */
  readonly jsonApi?: boolean | undefined;
  /** GraphQL output is generated (default false): enum and public id are refused. */
  readonly graphql?: boolean | undefined;
  /** The fields are added to an existing table (default false): references and attachments must be optional. */
  readonly existingTable?: boolean | undefined;
  /** Columns the table already has besides `id` and the timestamps, e.g. the owner's `user_id`. */
  readonly takenColumns?: readonly string[] | undefined;
  /** Table name of a model (default {@link pluralize}). */
  readonly tableOf?: ((model: string) => string) | undefined;
  /** Where a model's module lives, for the "does not exist" message (default `src/models/<model>.ts`). */
  readonly modelPath?: ((model: string) => string) | undefined;
}

/** The declarations of a model, parsed, or the first refusal (generation then writes nothing). */
export type ParsedFields =
  | { readonly ok: true; readonly value: readonly Field[] }
  | DeclarationRefusal;

const TYPES_WITH_ARGUMENTS: ReadonlySet<FieldType> = new Set(["enum", "polymorphic", "references"]);
const NEVER_UNIQUE: ReadonlySet<FieldType> = new Set([
  "attachment",
  "attachments",
  "json",
  "enum",
  "rich_text",
]);
const SCAFFOLD_ROUTES: ReadonlySet<string> = new Set(["edit", "delete", "new"]);
const MODIFIERS: ReadonlySet<string> = new Set(["", "?", "^", "?^", "^?"]);

/** Parses one `name:type[:args][?][^]` declaration, without checks that involve other fields. */
export function parseDeclaration(
  declaration: string,
  context: DeclarationContext = {},
): { readonly ok: true; readonly value: Field } | DeclarationRefusal {
  const d = declaration;
  const [, body = "", modifiers = ""] = /^(.*?)([?^]*)$/s.exec(d) ?? [];
  const [name = "", typeWord = "", ...rest] = body.split(":");
  const validModifiers = MODIFIERS.has(modifiers);
  const optional = modifiers.includes("?");
  const unique = modifiers.includes("^");

  if (!SNAKE_CASE.test(name)) return refuse.invalidName(d, name);
  if (RESERVED_NAMES.has(name)) return refuse.reserved(d, name);
  // Before the missing-type check, so that `public_id` alone gets the one form to write.
  if (name === "lock_version" || typeWord === "lock_version") {
    if (d !== "lock_version:integer") return refuse.lockVersion(d);
  } else if (name === "public_id" || typeWord === "token") {
    if (d !== "public_id:token") return refuse.publicId(d);
  }
  if (typeWord === "") return refuse.noType(d, name);

  const special = name === "lock_version" || name === "public_id";
  const type: FieldType | undefined = special ? (name as FieldType) : typeOfWord(typeWord);
  if (type === undefined || !validModifiers) {
    const written = validModifiers ? typeWord : `${typeWord}${modifiers}`;
    return refuse.unknownType(d, written, name, closestName(typeWord, Object.keys(TYPE_WORDS)));
  }
  if (rest.length > 0 && !TYPES_WITH_ARGUMENTS.has(type)) {
    return refuse.takesNoArgument(d, typeWord, name, rest.join(":"));
  }
  if ((type === "attachment" || type === "attachments") && SCAFFOLD_ROUTES.has(name)) {
    return refuse.scaffoldRoute(d, name);
  }

  const shape = resolveShape(d, name, type, typeWord, rest, context);
  if (!shape.ok) return shape;

  if (type === "boolean" && optional) return refuse.optionalBoolean(d, name);
  if (type === "attachments" && optional) return refuse.optionalAttachments(d, name);
  if (unique && NEVER_UNIQUE.has(type)) return refuse.cannotBeUnique(d, type, name);
  if (type === "attachments" && !name.endsWith("s")) return refuse.singularAttachments(d, name);
  if (context.graphql && (type === "enum" || type === "public_id")) {
    return refuse.graphql(d, name, type);
  }
  if (type === "attachment" && !optional && (context.jsonApi ?? true)) {
    return refuse.attachmentRequiredInJson(d, name);
  }
  if (context.existingTable && !optional && NO_VALUE_FOR_EXISTING_ROWS.has(type)) {
    const column = type === "references" || type === "polymorphic" ? shape.columns[0]! : name;
    return refuse.requiredOnExistingTable(d, column);
  }

  const field: Field = {
    name,
    type,
    optional,
    unique: unique || type === "public_id",
    args: shape.args,
    columns: shape.columns,
    declaration: d,
    ...(shape.references ? { references: shape.references } : {}),
  };
  return { ok: true, value: field };
}

interface Shape {
  readonly ok: true;
  readonly args: readonly string[];
  readonly columns: readonly string[];
  readonly references?: { readonly model: string; readonly table: string } | undefined;
}

/** Arguments and columns of a field whose name, type and modifiers are already known good. */
function resolveShape(
  d: string,
  name: string,
  type: FieldType,
  typeWord: string,
  rest: readonly string[],
  context: DeclarationContext,
): Shape | DeclarationRefusal {
  const modelPath = context.modelPath ?? ((model: string) => `src/models/${model}.ts`);
  const missingModel = (model: string) =>
    !SNAKE_CASE.test(model) || (context.models !== undefined && !context.models.includes(model));

  switch (type) {
    case "enum":
    case "polymorphic": {
      const written = rest.join(":");
      if (written === "") {
        return type === "enum" ? refuse.enumNoValues(d, name) : refuse.polymorphicNoModels(d, name);
      }
      const values = written.split(",");
      const problems = listProblems(values);
      if (problems !== "") {
        return type === "enum"
          ? refuse.invalidEnumValues(d, written, name, problems)
          : refuse.invalidPolymorphicModels(d, written, name, problems);
      }
      if (type === "enum") return { ok: true, args: values, columns: [name] };
      const missing = values.find(missingModel);
      if (missing !== undefined) return refuse.modelMissing(d, modelPath(missing), missing);
      return { ok: true, args: values, columns: [`${name}_type`, `${name}_id`] };
    }
    case "references": {
      if (rest.length > 2)
        return refuse.takesNoArgument(d, typeWord, name, rest.slice(2).join(":"));
      const columnOnly = rest.length === 1 && rest[0]!.endsWith("_id");
      const model = (columnOnly ? "" : rest[0]) || name;
      const column = (columnOnly ? rest[0] : rest[1]) ?? `${name}_id`;
      if (!SNAKE_CASE.test(column) || !column.endsWith("_id")) {
        return refuse.badForeignKey(d, column, name, model);
      }
      if (missingModel(model)) return refuse.modelMissing(d, modelPath(model), model);
      const table = (context.tableOf ?? pluralize)(model);
      return { ok: true, args: [model], columns: [column], references: { model, table } };
    }
    case "attachment":
      return { ok: true, args: [], columns: attachmentColumns(name) };
    case "attachments":
      return { ok: true, args: [], columns: [] };
    default:
      return { ok: true, args: [], columns: [name] };
  }
}

/** Why a comma-separated list of names is not distinct snake_case, or "" when it is. */
function listProblems(values: readonly string[]): string {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const value of values) {
    if (value === "") problems.push("a value is empty");
    else if (!SNAKE_CASE.test(value)) problems.push(`\`${value}\` is not snake_case`);
    else if (seen.has(value)) problems.push(`\`${value}\` is repeated`);
    seen.add(value);
  }
  return [...new Set(problems)].join("; ");
}

/**
 * Parses a model's declarations in order and checks them together (no name or column twice).
 * Stops at the first refusal, as the generator must write nothing for a refused list.
 */
export function parseDeclarations(
  declarations: readonly string[],
  context: DeclarationContext = {},
): ParsedFields {
  const taken = new Set<string>();
  const fields: Field[] = [];
  for (const declaration of declarations) {
    const parsed = parseDeclaration(declaration, context);
    if (!parsed.ok) return parsed;
    const field = parsed.value;
    for (const identifier of new Set([field.name, ...field.columns])) {
      if (context.takenColumns?.includes(identifier)) {
        return refuse.alreadyAColumn(declaration, identifier);
      }
      if (taken.has(identifier)) return refuse.listedTwice(declaration, identifier);
      taken.add(identifier);
    }
    fields.push(field);
  }
  return { ok: true, value: fields };
}

/** Options of {@link defineModel}. */
export interface DefineModelOptions {
  /** Default {@link pluralize} of the model name. */
  readonly table?: string | undefined;
  readonly context?: DeclarationContext | undefined;
  /**
   * Where `^` values must be distinct (default `table`, across all rows): `owner` for every `^`
   * field, or `{ name: "owner" }` for some. Owner scope needs the owner column `user_id`.
   */
  readonly uniqueScope?: UniqueScopeOption | undefined;
  /**
   * What rich_text values are sanitized with: `richTextSanitizer` of `@tessera/sanitizer`.
   * Required when a field is rich_text (fields holds no HTML parser of its own).
   */
  readonly richText?: RichTextSanitizer | undefined;
  /**
   * The writes whose records send a webhook event, `<name>.created`, `.updated`, `.deleted`:
   * `true` for all three, or a list of them (default none). It only declares them: a record
   * store sends them when given somewhere to (`SqlRecordStore`'s `events` of @tessera/records).
   * An unknown or repeated action throws.
   */
  readonly events?: ModelEventsOption | undefined;
  /**
   * Who the records belong to: `user` (the default; the table has `user_id`) or `organization`
   * (`organization_id`, plus `created_by`; the routes live under `/api/orgs/{slug}/…` and check
   * the member's role). A field may not be named after the owner's columns.
   */
  readonly owner?: RecordOwnerKind | undefined;
}

/**
 * A model from declarations the generator already accepted (a generated `src/models/*.ts`), as
 * one string (`"title:string views:integer?"`, split on whitespace) or an array of strings.
 * Literal declarations give the model its types ({@link RecordOf}, {@link CreateInputOf},
 * {@link UpdateInputOf}), and a refused one is a compile error where the types can see it.
 * Throws on a refused declaration, `uniqueScope` or `events`, or a rich_text field without the
 * `richText` sanitizer: here that is a programming error, not user input.
 *
 * @example
 * ```ts
 * import { decodeJsonCreate, defineModel } from "@tessera/fields";
 *
 * const post = defineModel("post", ["title:string", "status:enum:draft,published"]);
 * const created = decodeJsonCreate(post.fields, { title: "Hello", status: "draft" });
 * if (created.ok) console.log(created.value.values); // the columns to insert
 * else console.log(created.status, created.reason); // 400 or 422 ("Validation failed")
 * ```
 */
export function defineModel<const D extends string>(
  name: string,
  declarations: CheckedString<D>,
  options?: DefineModelOptions,
): DefinedModel<TypesOf<D>>;
export function defineModel<const D extends readonly string[]>(
  name: string,
  declarations: CheckedList<D>,
  options?: DefineModelOptions,
): DefinedModel<TypesOf<D>>;
export function defineModel(
  name: string,
  declarations: string | readonly string[],
  options: DefineModelOptions = {},
): DefinedModel {
  const list = typeof declarations === "string" ? splitDeclarations(declarations) : declarations;
  const owner = options.owner ?? "user";
  if (!RECORD_OWNER_KINDS.includes(owner)) {
    throw new Error(`model ${name}: owner is \`user\` or \`organization\``);
  }
  // The organization's columns are the table's own; `user_id` stays a field name a user's model
  // may not take only when the caller says so (as the generator does), as before.
  const context =
    owner === "organization"
      ? {
          ...options.context,
          takenColumns: [...(options.context?.takenColumns ?? []), ...ownerColumnsOf({ owner })],
        }
      : options.context;
  const parsed = parseDeclarations(list, context);
  if (!parsed.ok) throw new Error(`model ${name}: ${parsed.reason} (${parsed.hint})`);
  const scope = options.uniqueScope ?? "table";
  const problem = uniqueScopeProblem(parsed.value, scope);
  if (problem !== undefined) throw new Error(`model ${name}: ${problem}`);
  const scoped = withUniqueScope(parsed.value, scope);
  const fields = withRichText(scoped, options.richText, `model ${name}`);
  const events = modelEventActions(options.events);
  if (!events.ok) throw new Error(`model ${name}: ${events.problem}`);
  const model = { name, table: options.table ?? pluralize(name), fields };
  // Not enumerable: a model still equals one written as `{ name, table, fields }`, and a spread
  // copy (`{ ...model, fields: other }`) carries no schema of the old fields. Declared events
  // are enumerable, so that a copy (`graphqlModel`'s) still sends them; none are not, so that a
  // model without stays equal to the plain object.
  return Object.defineProperties(model, {
    create: { value: jsonBodySchema((body) => decodeJsonCreate(fields, body)) },
    update: { value: jsonBodySchema((body) => decodeJsonUpdate(fields, body)) },
    events: { value: Object.freeze(events.value), enumerable: events.value.length > 0 },
    // Likewise: a user's model stays equal to the plain object, an organization's says so.
    owner: { value: owner, enumerable: owner === "organization" },
  }) as DefinedModel;
}

/**
 * The declarations of the one-string form: its words, split on spaces, tabs and line breaks
 * (the whitespace the declaration types split on too).
 */
export function splitDeclarations(declarations: string): readonly string[] {
  return declarations.split(/[ \t\n\r]+/).filter((word) => word !== "");
}
