// RFC 2047 B encoding: base64 of UTF-8 needs no rules about which characters may stay literal,
// unlike Q encoding, and every mail reader decodes it.

const PREFIX = "=?UTF-8?B?";
const SUFFIX = "?=";
// An encoded-word is at most 75 characters: 75 - 12 leaves 63, so 60 base64 characters (45 bytes).
const MAX_BYTES_PER_WORD = 45;

/** True when `text` can stay as it is in a header: printable ASCII and spaces only. */
export function isPlainHeaderText(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}

/**
 * `text` as RFC 2047 encoded-words (`=?UTF-8?B?…?=`), each within 75 characters and never
 * splitting a character's bytes, joined by `separator` (a folding `\r\n ` in a header).
 */
export function encodeWords(text: string, separator = "\r\n "): string {
  const encoder = new TextEncoder();
  const words: string[] = [];
  let chunk: number[] = [];
  for (const character of text) {
    const bytes = encoder.encode(character);
    if (chunk.length + bytes.length > MAX_BYTES_PER_WORD) {
      words.push(PREFIX + base64(chunk) + SUFFIX);
      chunk = [];
    }
    chunk.push(...bytes);
  }
  if (chunk.length > 0 || words.length === 0) words.push(PREFIX + base64(chunk) + SUFFIX);
  return words.join(separator);
}

/** Base64 of bytes with the runtime's own `btoa`, available on Node, Bun, Deno and workerd. */
export function base64(bytes: ArrayLike<number>): string {
  let binary = "";
  for (let index = 0; index < bytes.length; index++) binary += String.fromCharCode(bytes[index]!);
  return btoa(binary);
}
