/** `YYYY-MM-DD HH:MM:SS` in UTC: how the app stores times (its `formatTimestamp`). */
export function sqlTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19).replace("T", " ");
}
