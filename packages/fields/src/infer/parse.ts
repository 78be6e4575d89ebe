// Type level: one `name:type[:args][?][^]` declaration, parsed as `parseDeclaration` parses it,
// with the same refusal messages, in the same order. Only the refusals that depend on nothing
// but the declaration are seen here; those that need the app around it (`DeclarationContext`:
// existing models, JSON API, GraphQL, existing table) are left to the run time.

import type { FieldType } from "../field.js";
import type { TypeWords } from "../type-aliases.js";
import type { IsNameList, IsReserved, IsSnakeCase, ListedNames } from "./names.js";

/** What the types know of an accepted declaration. */
export interface FieldShape {
  readonly name: string;
  readonly type: FieldType;
  readonly optional: boolean;
  /** Enum values or polymorphic model names as a union; `never` for the other types. */
  readonly values: string;
  /** The columns the field occupies in its table, in order (`post_id` for `post:references`). */
  readonly columns: readonly string[];
}

/** A refused declaration, carrying the message `parseDeclaration` gives for it. */
export interface Refused<Message extends string> {
  readonly refused: Message;
}

/** An accepted declaration. */
type Shape<
  N extends string,
  Type extends FieldType,
  O extends boolean,
  Values extends string,
  Columns extends readonly string[],
> = { name: N; type: Type; optional: O; values: Values; columns: Columns };

type ValidModifiers = "" | "?" | "^" | "?^" | "^?";
type WithArguments = "enum" | "polymorphic" | "references";
type NeverUnique = "attachment" | "attachments" | "json" | "enum" | "rich_text";

/** `[body, modifiers]`: every `?` and `^` at the end of the declaration, as the run time's regex takes them. */
type TrailingModifiers<S extends string, M extends string = ""> = S extends `${infer B}?`
  ? TrailingModifiers<B, `?${M}`>
  : S extends `${infer B}^`
    ? TrailingModifiers<B, `^${M}`>
    : [S, M];

/** `[name, type word, arguments, has arguments]` of a body split on its colons. */
type BodyParts<B extends string> = B extends `${infer N}:${infer Rest}`
  ? Rest extends `${infer T}:${infer A}`
    ? [N, T, A, true]
    : [N, Rest, "", false]
  : [B, "", "", false];

/** One declaration's {@link FieldShape}, or its {@link Refused} message. */
export type ParseDeclaration<D extends string> =
  TrailingModifiers<D> extends [infer Body extends string, infer M extends string]
    ? BodyParts<Body> extends [
        infer N extends string,
        infer T extends string,
        infer A extends string,
        infer HasArgs extends boolean,
      ]
      ? CheckName<D, N, T, A, HasArgs, M>
      : never
    : never;

type CheckName<
  D extends string,
  N extends string,
  T extends string,
  A extends string,
  HasArgs extends boolean,
  M extends string,
> =
  IsSnakeCase<N> extends false
    ? Refused<`invalid field name \`${N}\``>
    : IsReserved<N> extends true
      ? Refused<`field name \`${N}\` is reserved`>
      : CheckSpecial<D, N, T, A, HasArgs, M>;

/** `lock_version:integer` and `public_id:token` are written exactly so, or refused. */
type CheckSpecial<
  D extends string,
  N extends string,
  T extends string,
  A extends string,
  HasArgs extends boolean,
  M extends string,
> = "lock_version" extends N | T
  ? D extends "lock_version:integer"
    ? Shape<"lock_version", "lock_version", false, never, ["lock_version"]>
    : Refused<"`lock_version` must be `lock_version:integer`">
  : "public_id" extends N
    ? PublicId<D>
    : "token" extends T
      ? PublicId<D>
      : CheckType<N, T, A, HasArgs, M>;

type PublicId<D extends string> = D extends "public_id:token"
  ? Shape<"public_id", "public_id", false, never, ["public_id"]>
  : Refused<"a public id is `public_id:token`">;

type CheckType<
  N extends string,
  T extends string,
  A extends string,
  HasArgs extends boolean,
  M extends string,
> = T extends ""
  ? Refused<`field \`${N}\` has no type`>
  : M extends ValidModifiers
    ? T extends keyof TypeWords
      ? CheckArguments<
          N,
          T,
          TypeWords[T],
          A,
          HasArgs,
          M extends `${string}?${string}` ? true : false,
          M extends `${string}^${string}` ? true : false
        >
      : Refused<`unknown field type \`${T}\` for \`${N}\``>
    : Refused<`unknown field type \`${T}${M}\` for \`${N}\``>;

type CheckArguments<
  N extends string,
  T extends string,
  Type extends FieldType,
  A extends string,
  HasArgs extends boolean,
  O extends boolean,
  U extends boolean,
> = HasArgs extends true
  ? Type extends WithArguments
    ? CheckRoute<N, T, Type, A, HasArgs, O, U>
    : Refused<`type \`${T}\` of \`${N}\` takes no \`:${A}\``>
  : CheckRoute<N, T, Type, A, HasArgs, O, U>;

type CheckRoute<
  N extends string,
  T extends string,
  Type extends FieldType,
  A extends string,
  HasArgs extends boolean,
  O extends boolean,
  U extends boolean,
> = Type extends "attachment" | "attachments"
  ? N extends "edit" | "delete" | "new"
    ? Refused<`attachment name \`${N}\` clashes with a scaffold route`>
    : Finish<N, Type, O, U, Resolve<N, T, Type, A, HasArgs>>
  : Finish<N, Type, O, U, Resolve<N, T, Type, A, HasArgs>>;

/** The values and columns a type gives, or the refusal of its arguments. */
type Resolve<
  N extends string,
  T extends string,
  Type extends FieldType,
  A extends string,
  HasArgs extends boolean,
> = Type extends "enum"
  ? A extends ""
    ? Refused<`enum \`${N}\` has no values`>
    : IsNameList<A> extends true
      ? [ListedNames<A>, [N]]
      : Refused<`invalid values \`${A}\` for enum \`${N}\``>
  : Type extends "polymorphic"
    ? A extends ""
      ? Refused<`polymorphic \`${N}\` has no models`>
      : IsNameList<A> extends true
        ? [ListedNames<A>, [`${N}_type`, `${N}_id`]]
        : Refused<`invalid models \`${A}\` for polymorphic \`${N}\``>
    : Type extends "references"
      ? Reference<N, T, HasArgs extends true ? ReferenceArguments<A> : []>
      : Type extends "attachment"
        ? [never, [`${N}_key`, `${N}_filename`, `${N}_content_type`, `${N}_size`]]
        : Type extends "attachments"
          ? [never, []]
          : [never, [N]];

/** `references` arguments split on colons: `[model?, column?]`, or the part after two. */
type ReferenceArguments<A extends string> = A extends `${infer Model}:${infer Column}`
  ? Column extends `${string}:${infer More}`
    ? { more: More }
    : [Model, Column]
  : [A];

/** `post:references`, `author:references:user`, `author:references:writer_id`, `author:references:user:writer_id`. */
type Reference<N extends string, T extends string, Args> = Args extends {
  more: infer More extends string;
}
  ? Refused<`type \`${T}\` of \`${N}\` takes no \`:${More}\``>
  : Args extends [infer Only extends string]
    ? Only extends `${string}_id`
      ? ReferenceColumn<N, N, Only>
      : ReferenceColumn<N, Only extends "" ? N : Only, `${N}_id`>
    : Args extends [infer Model extends string, infer Column extends string]
      ? ReferenceColumn<N, Model extends "" ? N : Model, Column>
      : ReferenceColumn<N, N, `${N}_id`>;

type ReferenceColumn<N extends string, Model extends string, Column extends string> =
  IsSnakeCase<Column> extends true
    ? Column extends `${string}_id`
      ? IsSnakeCase<Model> extends true
        ? [never, [Column]]
        : Refused<`\`src/models/${Model}.ts\` does not exist`>
      : Refused<`invalid foreign key column \`${Column}\` for \`${N}\` (must be snake_case ending in \`_id\`)`>
    : Refused<`invalid foreign key column \`${Column}\` for \`${N}\` (must be snake_case ending in \`_id\`)`>;

/** The modifier refusals, once the arguments are known good. */
type Finish<N extends string, Type extends FieldType, O extends boolean, U extends boolean, R> =
  R extends Refused<string>
    ? R
    : R extends [infer Values extends string, infer Columns extends readonly string[]]
      ? Type extends "boolean"
        ? O extends true
          ? Refused<`boolean field \`${N}\` cannot be optional`>
          : Unique<N, Type, O, U, Values, Columns>
        : Type extends "attachments"
          ? O extends true
            ? Refused<`\`attachments\` \`${N}\` cannot be optional`>
            : Unique<N, Type, O, U, Values, Columns>
          : Unique<N, Type, O, U, Values, Columns>
      : never;

type Unique<
  N extends string,
  Type extends FieldType,
  O extends boolean,
  U extends boolean,
  Values extends string,
  Columns extends readonly string[],
> = U extends true
  ? Type extends NeverUnique
    ? Refused<`\`${Type}\` \`${N}\` cannot be unique`>
    : Plural<N, Type, O, Values, Columns>
  : Plural<N, Type, O, Values, Columns>;

type Plural<
  N extends string,
  Type extends FieldType,
  O extends boolean,
  Values extends string,
  Columns extends readonly string[],
> = Type extends "attachments"
  ? N extends `${string}s`
    ? Shape<N, Type, O, Values, Columns>
    : Refused<`attachments name \`${N}\` must be plural`>
  : Shape<N, Type, O, Values, Columns>;
