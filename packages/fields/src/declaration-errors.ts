// Each refusal pairs the documented message (docs/fields.md) with a hint that says what to write instead.
// Backticks are part of the messages: every identifier is written in them, the way
// compiler diagnostics do, and the generator prints them as they are.

/** A refused declaration: the message as `reason`, and advice on what to write instead. */
export interface DeclarationRefusal {
  readonly ok: false;
  readonly reason: string;
  readonly hint: string;
  /** The declaration that was refused, as written (empty for whole-app refusals). */
  readonly declaration: string;
}

/** The types a declaration may name, in the order hints list them. */
export const TYPE_NAMES = [
  "string",
  "text",
  "rich_text",
  "integer",
  "float",
  "boolean",
  "date",
  "datetime",
  "time",
  "decimal",
  "uuid",
  "references",
  "polymorphic",
  "attachment",
  "attachments",
  "json",
  "enum",
] as const;

const SAFER_NAMES: Readonly<Record<string, string>> = {
  type: "kind",
  order: "position",
  index: "position",
  key: "code",
  default: "is_default",
  values: "items",
  limit: "max_count",
  offset: "start_offset",
  table: "table_name",
  check: "checked",
  self: "own",
  ref: "reference",
};

function refusal(declaration: string, reason: string, hint: string): DeclarationRefusal {
  return { ok: false, reason, hint, declaration };
}

function snakeCaseOf(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^[^a-zA-Z]+|_+$/g, "")
    .toLowerCase();
}

/** Refusals for every refused declaration of docs/fields.md. */
export const refuse = {
  noType: (d: string, name: string) =>
    refusal(
      d,
      `field \`${name}\` has no type`,
      `write \`${name}:string\` or another type after a colon (${TYPE_NAMES.join(", ")})`,
    ),
  invalidName: (d: string, name: string) => {
    const moved = /[?^]/.test(name) ? " Modifiers go after the type: `title:string?^`." : "";
    const snake = snakeCaseOf(name.replace(/[?^]/g, ""));
    const example = snake ? `\`${snake}\`` : "`title`";
    return refusal(
      d,
      `invalid field name \`${name}\``,
      `names are snake_case and start with a letter, e.g. ${example}.${moved}`,
    );
  },
  unknownType: (d: string, type: string, name: string, closest: string | undefined) => {
    const modifiers = type.match(/[?^]/)
      ? "modifiers go at the very end (`status:enum:a,b?`) and are `?`, `^`, `?^` or `^?`; "
      : "";
    const guess = closest ? `did you mean \`${name}:${closest}\`? ` : "";
    return refusal(
      d,
      `unknown field type \`${type}\` for \`${name}\``,
      `${modifiers}${guess}known types: ${TYPE_NAMES.join(", ")} (aliases: int, small_int, big_int, double, bool, date_time, jsonb)`,
    );
  },
  reserved: (d: string, name: string) =>
    refusal(
      d,
      `field name \`${name}\` is reserved`,
      name === "id" || name === "created_at" || name === "updated_at"
        ? `every table already has \`id\`, \`created_at\` and \`updated_at\`: leave \`${name}\` out`
        : `\`${name}\` is a Rust or SQL keyword; choose another name, e.g. \`${SAFER_NAMES[name] ?? `${name}_value`}\``,
    ),
  listedTwice: (d: string, name: string) =>
    refusal(
      d,
      `field \`${name}\` is listed twice`,
      `each name may appear once, including the columns other fields add (\`<name>_id\` for references and polymorphic, \`<name>_type\`, and \`<name>_key\`, \`_filename\`, \`_content_type\`, \`_size\` for an attachment): rename or remove one`,
    ),
  alreadyAColumn: (d: string, name: string) =>
    refusal(
      d,
      `field \`${name}\` is listed twice`,
      `the table already has a \`${name}\` column (a record's owner: \`user_id\`, or \`organization_id\` and \`created_by\`); use another name, e.g. \`author:references:user\``,
    ),
  scaffoldRoute: (d: string, name: string) =>
    refusal(
      d,
      `attachment name \`${name}\` clashes with a scaffold route`,
      `\`/<plural>/{id}/${name}\` is a page route; name the attachment something else, e.g. \`${name}_file\``,
    ),
  optionalBoolean: (d: string, name: string) =>
    refusal(
      d,
      `boolean field \`${name}\` cannot be optional`,
      `write \`${name}:boolean\`: a boolean that is not sent is false`,
    ),
  cannotBeUnique: (d: string, kind: string, name: string) =>
    refusal(
      d,
      `\`${kind}\` \`${name}\` cannot be unique`,
      `drop the \`^\`: write \`${d.replace(/[?^]+$/, "")}${d.includes("?") ? "?" : ""}\``,
    ),
  enumNoValues: (d: string, name: string) =>
    refusal(
      d,
      `enum \`${name}\` has no values`,
      `list the values after the type, e.g. \`${name}:enum:draft,published\``,
    ),
  invalidEnumValues: (d: string, values: string, name: string, problems: string) =>
    refusal(
      d,
      `invalid values \`${values}\` for enum \`${name}\``,
      `values are distinct snake_case words separated by commas, e.g. \`${name}:enum:draft,published\`; ${problems}`,
    ),
  modelMissing: (d: string, path: string, model: string) =>
    refusal(
      d,
      `\`${path}\` does not exist`,
      model === "user"
        ? "run `tessera generate accounts` first to create the User model"
        : `generate the \`${model}\` model first (\`tessera generate model ${model} ...\`), or name an existing model`,
    ),
  badForeignKey: (d: string, column: string, name: string, model: string) =>
    refusal(
      d,
      `invalid foreign key column \`${column}\` for \`${name}\` (must be snake_case ending in \`_id\`)`,
      `write e.g. \`${name}:references:${model}:${name}_id\``,
    ),
  takesNoArgument: (d: string, type: string, name: string, arg: string) =>
    refusal(
      d,
      `type \`${type}\` of \`${name}\` takes no \`:${arg}\``,
      `write \`${name}:${type}\`; only enum, polymorphic and references take arguments after the type`,
    ),
  lockVersion: (d: string) =>
    refusal(
      d,
      "`lock_version` must be `lock_version:integer`",
      "write exactly `lock_version:integer`, with no modifiers: it is never optional and never unique",
    ),
  publicId: (d: string) =>
    refusal(
      d,
      "a public id is `public_id:token`",
      "write exactly `public_id:token`, with no modifiers: it is always set and always unique",
    ),
  attachmentRequiredInJson: (d: string, name: string) =>
    refusal(
      d,
      `attachment \`${name}\` must be optional in a JSON API`,
      `write \`${name}:attachment?\`: a JSON body cannot carry the file, which is uploaded once the record exists`,
    ),
  graphql: (d: string, name: string, type: string) =>
    refusal(
      d,
      "not supported with GraphQL",
      type === "enum"
        ? `declare \`${name}:string\` and check its values in your code, or generate without GraphQL`
        : "leave out `public_id:token`, or generate without GraphQL",
    ),
  requiredOnExistingTable: (d: string, column: string) =>
    refusal(
      d,
      `\`${column}\` must be optional when added to an existing table`,
      `add a \`?\`: write \`${d.replace(/[?^]+$/, "")}?${d.includes("^") ? "^" : ""}\`; the rows already there have no value for it`,
    ),
  accountsTwice: () =>
    refusal(
      "",
      "this app already has a User model or a users table",
      "the accounts generator runs once; change `src/models/user.ts` and add a migration instead",
    ),
  // Refusals Tessera adds to the portable set: each would otherwise generate broken code.
  polymorphicNoModels: (d: string, name: string) =>
    refusal(
      d,
      `polymorphic \`${name}\` has no models`,
      `list the models it may point to, e.g. \`${name}:polymorphic:post,comment\``,
    ),
  invalidPolymorphicModels: (d: string, values: string, name: string, problems: string) =>
    refusal(
      d,
      `invalid models \`${values}\` for polymorphic \`${name}\``,
      `models are distinct snake_case singular names separated by commas, e.g. \`${name}:polymorphic:post,comment\`; ${problems}`,
    ),
  optionalAttachments: (d: string, name: string) =>
    refusal(
      d,
      `\`attachments\` \`${name}\` cannot be optional`,
      `write \`${name}:attachments\`: a list of files may be empty`,
    ),
  singularAttachments: (d: string, name: string) =>
    refusal(
      d,
      `attachments name \`${name}\` must be plural`,
      `write e.g. \`${name}s:attachments\`; each file is then stored as \`${name}\``,
    ),
};
