/** The parts of a key its lifetime depends on. */
export interface KeyTimes {
  readonly generation: number;
  readonly createdAt: number;
  readonly retiredAt: number | null;
}

/**
 * The key that signs at `now`: the newest generation, unless it is retired (then none, and a
 * new one must be made: an older key never signs again).
 */
export function currentSigningKey<K extends KeyTimes>(
  keys: readonly K[],
  now: number,
): K | undefined {
  const newest = newestFirst(keys)[0];
  return newest && isRetired(newest, now) ? undefined : newest;
}

/**
 * The keys that verify at `now`, newest first: each not retired, and either the newest or
 * succeeded less than `maxTokenLifetimeMs` ago (`now ≤ createdAt of the next + lifetime`),
 * so the last token it signed has not expired yet. The others leave the public set.
 */
export function verifyingKeys<K extends KeyTimes>(
  keys: readonly K[],
  now: number,
  maxTokenLifetimeMs: number,
): K[] {
  const ordered = newestFirst(keys);
  return ordered.filter((key, index) => {
    if (isRetired(key, now)) return false;
    const next = ordered[index - 1];
    return next === undefined || now <= next.createdAt + maxTokenLifetimeMs;
  });
}

function isRetired(key: KeyTimes, now: number): boolean {
  return key.retiredAt !== null && key.retiredAt <= now;
}

function newestFirst<K extends KeyTimes>(keys: readonly K[]): K[] {
  return [...keys].sort((a, b) => b.generation - a.generation);
}
