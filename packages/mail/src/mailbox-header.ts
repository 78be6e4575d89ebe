import { encodeWords, isPlainHeaderText } from "./encoded-word.js";
import type { Mailbox } from "./mailbox.js";

/**
 * A mailbox as a header value: `"Notes" <no-reply@app.example>`, with a non-ASCII name as an
 * RFC 2047 encoded-word (`=?UTF-8?B?…?= <…>`), or the bare address.
 */
export function encodeMailboxHeader(mailbox: Mailbox): string {
  if (mailbox.name === undefined) return mailbox.address;
  const name = isPlainHeaderText(mailbox.name)
    ? `"${mailbox.name.replace(/(["\\])/g, "\\$1")}"`
    : encodeWords(mailbox.name, " ");
  return `${name} <${mailbox.address}>`;
}
