/** A release's size, as changesets names it. */
export type Bump = "patch" | "minor" | "major";

const ORDER: Readonly<Record<Bump, number>> = { patch: 1, minor: 2, major: 3 };

/** Whether `given` is at least `needed`. */
export function covers(given: Bump | undefined, needed: Bump): boolean {
  return given !== undefined && ORDER[given] >= ORDER[needed];
}

/** The larger of two bumps (either may be absent). */
export function largerBump(a: Bump | undefined, b: Bump | undefined): Bump | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return ORDER[a] >= ORDER[b] ? a : b;
}

/**
 * The bump an API report's change needs, from its text at the last release (`released`,
 * undefined for an entry that did not exist then) to now (`current`, undefined for an entry
 * removed): none when equal; a line of the released report that is gone is something removed
 * or changed, which breaks users (major; minor while the package is 0.x); only lines added is
 * an addition (minor; patch while 0.x).
 */
export function requiredBump(
  released: string | undefined,
  current: string | undefined,
  version: string,
): Bump | undefined {
  if (released === current) return undefined;
  const initial = version.startsWith("0.");
  const kept = new Set(current?.split("\n") ?? []);
  const breaking = released?.split("\n").some((line) => !kept.has(line)) ?? false;
  if (breaking) return initial ? "minor" : "major";
  return initial ? "patch" : "minor";
}
