import { EncodingError } from "./encoding-error.js";

// Written here rather than taken from a library: Node 20 has no Uint8Array.fromBase64, and
// atob/Buffer silently skip bad characters and ignore stray bits, which a verifier must not do.

const STANDARD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function reverseAlphabet(alphabet: string): Int8Array {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}

const STANDARD_VALUES = reverseAlphabet(STANDARD_ALPHABET);
const URL_VALUES = reverseAlphabet(URL_ALPHABET);

function encode(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let text = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    text +=
      alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    text += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + (pad ? "==" : "");
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    text += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]!;
    if (pad) text += "=";
  }
  return text;
}

function decode(text: string, values: Int8Array, encodingName: string): Uint8Array {
  let end = text.length;
  if (end % 4 === 0 && text.endsWith("==")) end -= 2;
  else if (end % 4 === 0 && text.endsWith("=")) end -= 1;
  if (end % 4 === 1) throw new EncodingError(`${encodingName} text has an impossible length`);
  const bytes = new Uint8Array(Math.floor((end * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let written = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? values[code]! : -1;
    if (value < 0) throw new EncodingError(`invalid ${encodingName} character at position ${i}`);
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[written++] = (buffer >> bits) & 0xff;
    }
  }
  // Leftover bits must be zero, so every byte string has exactly one accepted encoding.
  if ((buffer & ((1 << bits) - 1)) !== 0) {
    throw new EncodingError(`${encodingName} text has non-zero trailing bits`);
  }
  return bytes;
}

interface NativeBuffer {
  from(
    buffer: ArrayBufferLike,
    offset: number,
    length: number,
  ): {
    toString(encoding: "base64" | "base64url"): string;
  };
}

// Node's and Bun's Buffer encode in native code, several times faster than the loop above (a
// session cookie is encoded on every response that changes it). Encoding has no strictness to
// lose; decoding stays ours.
const nativeBuffer = (globalThis as { Buffer?: NativeBuffer | undefined }).Buffer;

/** The encoders runtimes without Buffer use (Deno, Workers); the package exports them not. */
export const portableEncoders = {
  base64: (bytes: Uint8Array) => encode(bytes, STANDARD_ALPHABET, true),
  base64url: (bytes: Uint8Array) => encode(bytes, URL_ALPHABET, false),
};

function nativeEncode(bytes: Uint8Array, encoding: "base64" | "base64url"): string {
  return nativeBuffer!.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(encoding);
}

/** Encodes bytes as standard base64 (RFC 4648 §4) with `=` padding. */
export function encodeBase64(bytes: Uint8Array): string {
  return nativeBuffer ? nativeEncode(bytes, "base64") : portableEncoders.base64(bytes);
}

/** Encodes bytes as URL-safe base64 (RFC 4648 §5) without padding. */
export function encodeBase64url(bytes: Uint8Array): string {
  return nativeBuffer ? nativeEncode(bytes, "base64url") : portableEncoders.base64url(bytes);
}

/**
 * Decodes standard base64; padding is optional but must be correct when present.
 * @throws {EncodingError} for characters outside the alphabet, a bad length or non-zero trailing bits.
 */
export function decodeBase64(text: string): Uint8Array {
  return decode(text, STANDARD_VALUES, "base64");
}

/**
 * Decodes URL-safe base64; padding is optional but must be correct when present.
 * @throws {EncodingError} for characters outside the alphabet, a bad length or non-zero trailing bits.
 */
export function decodeBase64url(text: string): Uint8Array {
  return decode(text, URL_VALUES, "base64url");
}
