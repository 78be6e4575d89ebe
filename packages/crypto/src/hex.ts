import { EncodingError } from "./encoding-error.js";

const HEX_DIGITS = "0123456789abcdef";

/** Encodes bytes as lowercase hexadecimal. */
export function encodeHex(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += HEX_DIGITS[byte >> 4]! + HEX_DIGITS[byte & 15]!;
  return text;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 97 && code <= 102) return code - 87; // a-f
  if (code >= 65 && code <= 70) return code - 55; // A-F
  return -1;
}

/**
 * Decodes hexadecimal in either letter case.
 * @throws {EncodingError} for an odd length or any character that is not a hex digit.
 */
export function decodeHex(text: string): Uint8Array {
  if (text.length % 2 !== 0) throw new EncodingError("hex text has an odd number of digits");
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) {
    const high = hexValue(text.charCodeAt(2 * i));
    const low = hexValue(text.charCodeAt(2 * i + 1));
    if (high < 0 || low < 0) throw new EncodingError(`invalid hex digit near position ${2 * i}`);
    bytes[i] = (high << 4) | low;
  }
  return bytes;
}
