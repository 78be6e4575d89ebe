// Hand-written rather than Date.parse: Date.parse accepts "2023-02-30" (rolling it over to
// March), time zones and many other shapes, and a field takes exactly these forms.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** `HH:MM` or `HH:MM:SS`, 00:00 to 23:59:59: the whole rule of a time (the JSON Schemas reuse it). */
export const TIME_TEXT = /^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** True for a real `YYYY-MM-DD` date of the proleptic Gregorian calendar, years 0000–9999. */
export function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** True for `HH:MM` or `HH:MM:SS` from 00:00 to 23:59:59 (no leap second, no fraction). */
export function isTimeOfDay(text: string): boolean {
  return TIME_TEXT.test(text);
}

/**
 * True for a calendar date, a space or `T`, then a time of day: `2024-02-29 13:05` or
 * `2024-02-29T13:05:09`. No time zone, no fraction of a second, no date alone.
 */
export function isDateTime(text: string): boolean {
  const separator = text.charAt(10);
  return (
    (separator === " " || separator === "T") &&
    isCalendarDate(text.slice(0, 10)) &&
    isTimeOfDay(text.slice(11))
  );
}
