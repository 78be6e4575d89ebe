// The timestamp text lives beside Clock: every package that stores a time writes it.
// Both directions are written out by hand rather than through toISOString and Date.parse:
// every authenticated request reads a user's timestamps, and the string rebuilding those
// need cost about three times as much (measured in packages/core/bench/timestamp.bench.ts).

/** Milliseconds in 400 Gregorian years (146,097 days): the calendar repeats after them. */
const FOUR_CENTURIES_MS = 146_097 * 86_400_000;

function twoDigits(value: number): string {
  return value < 10 ? `0${value}` : `${value}`;
}

/** Formats epoch milliseconds as Tessera's UTC timestamp text `YYYY-MM-DD HH:MM:SS`. */
export function formatTimestamp(epochMs: number): string {
  const date = new Date(epochMs);
  const year = date.getUTCFullYear();
  // Years without exactly four digits (and invalid times) keep toISOString's form or error.
  if (!(year >= 1000 && year <= 9999)) {
    return date.toISOString().slice(0, 19).replace("T", " ");
  }
  return `${year}-${twoDigits(date.getUTCMonth() + 1)}-${twoDigits(date.getUTCDate())} ${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}:${twoDigits(date.getUTCSeconds())}`;
}

/** The number written by `length` ASCII digits of `text` from `start`, or -1 for a non-digit. */
function digitsAt(text: string, start: number, length: number): number {
  let value = 0;
  for (let index = start; index < start + length; index++) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Reads Tessera's UTC timestamp text back into epoch milliseconds (NaN when malformed). It
 * accepts what `Date.parse` accepts of `YYYY-MM-DDTHH:MM:SSZ`: a day past the month's end
 * rolls into the next month, and `24:00:00` is the next midnight.
 */
export function parseTimestamp(text: string): number {
  if (
    text.length !== 19 ||
    text[4] !== "-" ||
    text[7] !== "-" ||
    text[10] !== " " ||
    text[13] !== ":" ||
    text[16] !== ":"
  ) {
    return Number.NaN;
  }
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31) return Number.NaN;
  if (minute < 0 || minute > 59 || second < 0 || second > 59) return Number.NaN;
  if (hour < 0 || hour > 24 || (hour === 24 && (minute > 0 || second > 0))) return Number.NaN;
  // Date.UTC reads years 0–99 as 1900–1999; four centuries later the calendar is the same.
  if (year < 100) {
    return Date.UTC(year + 400, month - 1, day, hour, minute, second) - FOUR_CENTURIES_MS;
  }
  return Date.UTC(year, month - 1, day, hour, minute, second);
}
