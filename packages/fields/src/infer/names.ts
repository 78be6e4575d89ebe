// Type level: the snake_case rule (`SNAKE_CASE`) and the lists of names, checked on literals.

import type { ReservedName } from "../reserved-names.js";

type Lower =
  | "a"
  | "b"
  | "c"
  | "d"
  | "e"
  | "f"
  | "g"
  | "h"
  | "i"
  | "j"
  | "k"
  | "l"
  | "m"
  | "n"
  | "o"
  | "p"
  | "q"
  | "r"
  | "s"
  | "t"
  | "u"
  | "v"
  | "w"
  | "x"
  | "y"
  | "z";
type Digit = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";

/** After the first letter: letters and digits, with single `_` between them, not at the end. */
type SnakeTail<S extends string> = S extends ""
  ? true
  : S extends `_${infer C}${infer Rest}`
    ? C extends Lower | Digit
      ? SnakeTail<Rest>
      : false
    : S extends `${infer C}${infer Rest}`
      ? C extends Lower | Digit
        ? SnakeTail<Rest>
        : false
      : false;

/** Whether `S` is snake_case starting with a letter, as `SNAKE_CASE` tests it at run time. */
export type IsSnakeCase<S extends string> = S extends `${infer C}${infer Rest}`
  ? C extends Lower
    ? SnakeTail<Rest>
    : false
  : false;

/** Whether `S` is a reserved field name (`id`, `type`, `order`, ...). */
export type IsReserved<S extends string> = S extends ReservedName ? true : false;

/** Whether the comma-separated `List` holds distinct, non-empty snake_case names. */
export type IsNameList<
  List extends string,
  Seen extends string = never,
> = List extends `${infer Name},${infer Rest}`
  ? IsListedName<Name, Seen> extends true
    ? IsNameList<Rest, Seen | Name>
    : false
  : IsListedName<List, Seen>;

type IsListedName<Name extends string, Seen extends string> = [Name] extends [Seen]
  ? false
  : IsSnakeCase<Name>;

/** The names of a comma-separated list, as a union: `"draft,published"` → `"draft" | "published"`. */
export type ListedNames<List extends string> = List extends `${infer Name},${infer Rest}`
  ? Name | ListedNames<Rest>
  : List;
