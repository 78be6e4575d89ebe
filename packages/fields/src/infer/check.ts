// Type level: a whole declaration list, parsed as `parseDeclarations` parses it: every
// declaration in order, then no name or column twice; the first refusal wins.

import type { FieldShape, ParseDeclaration, Refused } from "./parse.js";
import type { DeclarationWords } from "./words.js";

/** What `defineModel` accepts: the one-string form or the array form. */
export type Declarations = string | readonly string[];

/** The array form of a declaration list (the one-string form split on whitespace). */
export type DeclarationList<D extends Declarations> = D extends string ? DeclarationWords<D> : D;

/**
 * Whether the declarations are not literal (a `string`, or an array whose length or elements
 * are not known): then nothing about the fields is known at compile time.
 */
export type IsLoose<D extends Declarations> = D extends string
  ? string extends D
    ? true
    : false
  : number extends D["length"]
    ? true
    : string extends D[number]
      ? true
      : false;

/** `[index, message]` of the first refused declaration of the list, or `never`. */
export type FirstRefusal<List extends readonly string[]> = Walk<List, [], never>;

type Walk<
  List extends readonly string[],
  Done extends unknown[],
  Taken extends string,
> = List extends readonly [infer D extends string, ...infer Rest extends readonly string[]]
  ? ParseDeclaration<D> extends infer Parsed
    ? Parsed extends Refused<infer Message>
      ? [`${Done["length"]}`, Message]
      : Parsed extends FieldShape
        ? Clash<[Parsed["name"], ...Parsed["columns"]], Taken> extends infer Name extends string
          ? [Name] extends [never]
            ? Walk<Rest, [...Done, D], Taken | Parsed["name"] | Parsed["columns"][number]>
            : [`${Done["length"]}`, `field \`${Name}\` is listed twice`]
          : never
        : never
    : never
  : never;

/** The first of `Identifiers` that an earlier declaration took, or `never`. */
type Clash<
  Identifiers extends readonly string[],
  Taken extends string,
> = Identifiers extends readonly [
  infer First extends string,
  ...infer Rest extends readonly string[],
]
  ? [First] extends [Taken]
    ? First
    : Clash<Rest, Taken>
  : never;

/** The accepted fields of a list that has no refusal, as a union of {@link FieldShape}s. */
export type FieldShapes<List extends readonly string[]> = Extract<
  ParseEach<List[number]>,
  FieldShape
>;

type ParseEach<D extends string> = D extends string ? ParseDeclaration<D> : never;

/**
 * The type `defineModel` asks of an array form: the list as written when it is accepted, else
 * the same list with the refused declaration replaced by its message, so the compiler points at
 * it: `Type '"views:strin"' is not assignable to type '"unknown field type `strin` for `views`"'`.
 */
export type CheckedList<D extends readonly string[]> =
  IsLoose<D> extends true
    ? D
    : { readonly [K in keyof D]: K extends FirstRefusal<D>[0] ? FirstRefusal<D>[1] : D[K] };

/** The type `defineModel` asks of a one-string form: the string, or the first refusal's message. */
export type CheckedString<D extends string> =
  IsLoose<D> extends true
    ? D
    : [FirstRefusal<DeclarationWords<D>>] extends [never]
      ? D
      : FirstRefusal<DeclarationWords<D>>[1];
