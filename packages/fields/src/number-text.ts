import { TOO_BIG, TOO_SMALL } from "./messages.js";

/** Largest integer a field stores: 2^53 − 1, the largest every JSON client reads exactly. */
export const MAX_INTEGER = 9_007_199_254_740_991;
/** Smallest integer a field stores. */
export const MIN_INTEGER = -9_007_199_254_740_991;

/** Text an optional integer field reads as a number (the JSON Schemas reuse the three). */
export const INTEGER_TEXT = /^[+-]?\d+$/;
/** Text an optional float field reads as a number, when it is also finite. */
export const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** A decimal field's text. */
export const DECIMAL_TEXT = /^[+-]?\d+(?:\.\d+)?$/;

/**
 * The integer an optionally signed run of ASCII digits denotes, or undefined for anything else
 * (spaces, fractions, exponents). Out-of-range values come back as numbers beyond the range:
 * rounding is monotonic, so they never round back inside it.
 */
export function parseIntegerText(text: string): number | undefined {
  if (!INTEGER_TEXT.test(text)) return undefined;
  const value = Number(text);
  return value === 0 ? 0 : value;
}

/** A finite number written in decimal or exponent notation, or undefined (no NaN, no Infinity). */
export function parseFloatText(text: string): number | undefined {
  if (!FLOAT_TEXT.test(text)) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) return undefined;
  return value === 0 ? 0 : value;
}

/** Optional sign, digits, optional dot and digits: no exponent, spaces or thousands separators. */
export function isDecimalText(text: string): boolean {
  return DECIMAL_TEXT.test(text);
}

/** The one range message an integer outside ±(2^53 − 1) gets, or undefined inside the range. */
export function integerRangeMessage(value: number): string | undefined {
  if (value > MAX_INTEGER) return TOO_BIG;
  if (value < MIN_INTEGER) return TOO_SMALL;
  return undefined;
}
