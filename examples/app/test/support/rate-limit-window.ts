/**
 * Waits, on the real clock, for a fresh fixed rate-limit window when the current one ends
 * within `neededMs`: attempts that straddle the boundary would be counted in two windows.
 */
export async function awaitWindowRoom(neededMs: number, windowMs = 60_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
