/** The lowest rate limit an endpoint may have: 1 delivery a second. */
export const MINIMUM_RATE_LIMIT = 1;
/** The highest rate limit an endpoint may have: 10,000 deliveries a second. */
export const MAXIMUM_RATE_LIMIT = 10_000;

/** On `rateLimit`: not a whole number from 1 to 10,000. */
export const RATE_LIMIT_INVALID = "must be a whole number of deliveries a second from 1 to 10,000";

/**
 * Checks an endpoint's rate limit: a whole number of deliveries a second from 1 to 10,000, or
 * null for none. Undefined when it is neither.
 */
export function checkRateLimit(value: unknown): { value: number | null } | undefined {
  if (value === null) return { value: null };
  if (
    typeof value === "number" &&
    Number.isInteger(value) &&
    value >= MINIMUM_RATE_LIMIT &&
    value <= MAXIMUM_RATE_LIMIT
  ) {
    return { value };
  }
  return undefined;
}
