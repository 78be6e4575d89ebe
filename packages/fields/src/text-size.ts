import { MAX_TEXT_BYTES } from "./messages.js";

/**
 * True when the UTF-8 form of `text` fits in {@link MAX_TEXT_BYTES}. Counts without encoding:
 * a lone surrogate counts 3 bytes, as TextEncoder writes U+FFFD for it.
 */
export function fitsTextLimit(text: string): boolean {
  // Each UTF-16 unit is at most 3 UTF-8 bytes, so short text needs no counting.
  if (text.length * 3 <= MAX_TEXT_BYTES) return true;
  if (text.length > MAX_TEXT_BYTES) return false;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes <= MAX_TEXT_BYTES;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
