/** A sender or recipient: an address, and the display name of `Name <address>` when given. */
export interface Mailbox {
  readonly name?: string | undefined;
  readonly address: string;
}

/**
 * Splits `Notes <no-reply@app.example>` (or `"Notes" <…>`) into name and address; a bare
 * address stays as it is. Line breaks become spaces, so a value cannot add header lines.
 */
export function parseMailbox(value: string): Mailbox {
  const flat = value.replace(/[\r\n]+/g, " ").trim();
  const match = /^(.*?)\s*<([^<>]+)>$/.exec(flat);
  if (match === null) return { address: flat };
  const name = match[1]!
    .replace(/^"(.*)"$/, "$1")
    .replace(/\\(.)/g, "$1")
    .trim();
  const address = match[2]!.trim();
  return name === "" ? { address } : { name, address };
}
