/**
 * An address as a notice to another mailbox names it: the local part's first character, then
 * `•••`, and the domain (`ada@example.com` → `a•••@example.com`). Enough for the owner to
 * recognise it, too little for a reader of the old mailbox to write to it.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  // Array.from keeps a character outside the BMP whole.
  const first = Array.from(email.slice(0, Math.max(at, 0)))[0] ?? "";
  return `${first}•••${at === -1 ? "" : email.slice(at)}`;
}
