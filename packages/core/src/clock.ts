/** The one clock type of Tessera: returns the current time in milliseconds since the epoch. */
export type Clock = () => number;

/** The real clock. Tests pass their own {@link Clock} instead. */
export const systemClock: Clock = () => Date.now();
