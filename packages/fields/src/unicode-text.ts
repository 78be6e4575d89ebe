// With the `u` flag a surrogate pair is one code point (not in the Surrogate category), so only
// an unpaired half matches. String.prototype.isWellFormed does the same but is not in the
// ES2023 library types this project compiles against.
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * True when `text` holds an unpaired UTF-16 surrogate (JSON's `"\ud800"` gives one). Such text
 * has no UTF-8 form: a database would store invalid bytes or silently replace them.
 */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
