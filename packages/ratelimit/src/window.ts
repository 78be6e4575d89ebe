/** The fixed window that contains `now`: its start, and the seconds until it ends (at least 1). */
export function fixedWindow(now: number, windowMs: number): { start: number; secondsLeft: number } {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, secondsLeft: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) };
}
