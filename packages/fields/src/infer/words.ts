// Type level: the one-string form of a declaration list, split into its declarations.

/** `S` with every newline, tab and carriage return turned into a space. */
type Spaced<S extends string> = S extends `${infer A}\n${infer B}`
  ? Spaced<`${A} ${B}`>
  : S extends `${infer A}\t${infer B}`
    ? Spaced<`${A} ${B}`>
    : S extends `${infer A}\r${infer B}`
      ? Spaced<`${A} ${B}`>
      : S;

/** The space-separated words of `S`, empty ones left out. One step per word, not per character. */
type SplitOnSpaces<
  S extends string,
  Words extends string[] = [],
> = S extends `${infer W} ${infer Rest}`
  ? SplitOnSpaces<Rest, W extends "" ? Words : [...Words, W]>
  : S extends ""
    ? Words
    : [...Words, S];

/**
 * `"title:string  views:integer?"` → `["title:string", "views:integer?"]`: the declarations of
 * a one-string list, split on whitespace as `defineModel` splits it at run time.
 */
export type DeclarationWords<S extends string> = SplitOnSpaces<Spaced<S>>;
