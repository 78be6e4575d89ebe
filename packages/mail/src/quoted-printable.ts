// Quoted-printable (RFC 2045 §6.7) rather than base64 for the text and HTML parts: the raw
// message stays readable (and greppable in tests), ASCII text barely grows, and no line exceeds
// 76 characters however long a link is (decoders rejoin soft breaks, so links stay whole).

const MAX_LINE = 76;
const HEX = "0123456789ABCDEF";

/**
 * `text` as quoted-printable UTF-8 with CRLF line endings. Every `=` of the output starts an
 * `=XX` escape or ends a line (a soft break): `=_`, which our boundaries hold, never occurs.
 */
export function encodeQuotedPrintable(text: string): string {
  const encoder = new TextEncoder();
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => encodeLine(encoder.encode(line)))
    .join("\r\n");
}

function encodeLine(bytes: Uint8Array): string {
  const lines: string[] = [];
  let current = "";
  bytes.forEach((byte, index) => {
    const last = index === bytes.length - 1;
    // Spaces and tabs stay literal except at the end of a line, where transports may strip them.
    const literal =
      (byte >= 33 && byte <= 126 && byte !== 61) || ((byte === 32 || byte === 9) && !last);
    const token = literal ? String.fromCharCode(byte) : `=${HEX[byte >> 4]}${HEX[byte & 15]}`;
    // Room for the token and, unless it ends the line, the "=" of a soft break.
    const room = MAX_LINE - (last ? 0 : 1);
    if (current.length + token.length > room) {
      lines.push(`${current}=`);
      current = "";
    }
    current += token;
  });
  lines.push(current);
  return lines.join("\r\n");
}
