/**
 * Reads `ALLOWED_ORIGINS`: split on commas, each entry trimmed, a trailing `/` dropped, empty
 * entries and `null` ignored (an opaque origin is never trustworthy). Lower-cased, as browsers
 * send `Origin`, so `HTTPS://App.example` matches.
 */
export function parseAllowedOrigins(value: string | null | undefined): string[] {
  if (!value) return [];
  return value
    .split(",")
    .map(normalizeOrigin)
    .filter((origin) => origin !== "" && origin !== "null");
}

/** The form in which origins are compared: trimmed, lower-cased, without a trailing `/`. */
export function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/$/, "").toLowerCase();
}

/** Whether an `Origin` header value is one of the allowed origins (`null` never is). */
export function isAllowedOrigin(origin: string | null, allowedOrigins: readonly string[]): boolean {
  if (origin === null) return false;
  const normalized = normalizeOrigin(origin);
  if (normalized === "" || normalized === "null") return false;
  return allowedOrigins.some((allowed) => normalizeOrigin(allowed) === normalized);
}
