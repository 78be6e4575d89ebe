import { fixedWindow } from "../window.js";

/**
 * Waits on the real clock, when the fixed window of `windowMs` now running ends within
 * `neededMs`, until just after the next one starts; otherwise returns at once. Call it before a
 * test that makes its attempts in one window (the 11th sign-in of a minute): attempts that
 * straddle a boundary are counted in two windows, and the test would fail now and then.
 * Windows start on multiples of `windowMs` since the epoch, as `fixedWindow` and Cloudflare's
 * rate-limiting binding count them.
 *
 * @example
 * ```ts
 * import { awaitWindowRoom } from "@tessera/ratelimit/testing";
 *
 * await awaitWindowRoom(5_000); // five seconds of one minute's window left, at least
 * ```
 */
export async function awaitWindowRoom(neededMs: number, windowMs = 60_000): Promise<void> {
  const now = Date.now();
  const left = fixedWindow(now, windowMs).start + windowMs - now;
  // A little past the boundary, so that a timer firing early still lands in the new window.
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
