/**
 * The wait a `Retry-After` header asks for, in milliseconds: delay-seconds (`120`) or an
 * HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`, measured from `now`). Undefined when absent or
 * unreadable; a date in the past is 0.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Date.parse reads IMF-fixdate and the obsolete RFC 850 / asctime forms; anything else is NaN.
  const at = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
