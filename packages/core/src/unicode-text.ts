// A NUL, or an unpaired surrogate half. With the `u` flag a surrogate pair is one code point
// (not in the Surrogate category), so only an unpaired half matches; one pass finds either.
// String.prototype.isWellFormed covers the surrogates only, and is not in the ES2023 library
// types this project compiles against.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point.
const UNSTORABLE_CHARACTER = /[\u0000\p{Surrogate}]/u;

/** The reason words of {@link unstorableText}, as the 400 messages write them. */
export type UnstorableText = "NUL character in string" | "lone surrogate in string";

/**
 * Why `text` cannot be stored as it is on every database alike, or undefined when it can: a
 * NUL (`\u0000`), which PostgreSQL refuses in text and jsonb and SQLite keeps, or an unpaired
 * UTF-16 surrogate (JSON's `"\ud800"`), which has no UTF-8 form. The first one found decides.
 * Refuse such text where it arrives, so the answer never depends on the engine.
 */
export function unstorableText(text: string): UnstorableText | undefined {
  const found = UNSTORABLE_CHARACTER.exec(text)?.[0];
  if (found === undefined) return undefined;
  return found === "\u0000" ? "NUL character in string" : "lone surrogate in string";
}
