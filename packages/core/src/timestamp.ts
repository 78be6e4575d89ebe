// The timestamp text lives beside Clock: every package that stores a time writes it.
/** Formats epoch milliseconds as Tessera's UTC timestamp text `YYYY-MM-DD HH:MM:SS`. */
export function formatTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19).replace("T", " ");
}

/** Reads Tessera's UTC timestamp text back into epoch milliseconds (NaN when malformed). */
export function parseTimestamp(text: string): number {
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return Number.NaN;
  return Date.parse(`${text.replace(" ", "T")}Z`);
}
