import { TYPE_NAMES } from "./declaration-errors.js";
import type { FieldType } from "./field.js";

/** The other names a declaration may give a type (`views:int`), each with the type it names. */
export const ALIASES = {
  int: "integer",
  small_int: "integer",
  big_int: "integer",
  double: "float",
  bool: "boolean",
  date_time: "datetime",
  jsonb: "json",
} as const satisfies Readonly<Record<string, FieldType>>;

/** Every word a declaration may write as its type, with the type it names. */
export type TypeWords = { readonly [T in (typeof TYPE_NAMES)[number]]: T } & typeof ALIASES;

/** Every word a declaration may write as its type, with the type it names. */
export const TYPE_WORDS: TypeWords = {
  ...(Object.fromEntries(TYPE_NAMES.map((type) => [type, type])) as {
    readonly [T in (typeof TYPE_NAMES)[number]]: T;
  }),
  ...ALIASES,
};

/** The type a word names, or undefined (also for `constructor` and other inherited keys). */
export function typeOfWord(word: string): FieldType | undefined {
  return Object.hasOwn(TYPE_WORDS, word) ? TYPE_WORDS[word as keyof TypeWords] : undefined;
}
