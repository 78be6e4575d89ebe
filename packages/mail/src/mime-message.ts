import { encodeWords, isPlainHeaderText } from "./encoded-word.js";
import type { Mailbox } from "./mailbox.js";
import { encodeMailboxHeader } from "./mailbox-header.js";
import { encodeQuotedPrintable } from "./quoted-printable.js";

// Written here rather than with mimetext (which Cloudflare's guide uses): we need one shape,
// text plus an HTML alternative, and mimetext would bring its base64 and MIME-type packages
// into every Worker for it; this file is that shape, round-tripped through mailparser in tests.

/** What {@link buildMimeMessage} puts in a message. */
export interface MimeMessageParts {
  readonly from: Mailbox;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string | undefined;
  /** `<id@domain>`, with the angle brackets. */
  readonly messageId: string;
  readonly date: Date;
}

// Longer ASCII subjects are encoded too, which folds them: no header line may pass 998 chars.
const MAX_PLAIN_SUBJECT = 900;

/**
 * A complete RFC 5322 message with CRLF line endings: a `multipart/alternative` of a text and an
 * HTML part (or a single text part), both quoted-printable UTF-8, a non-ASCII or long subject as
 * RFC 2047 encoded-words. Line breaks in the subject or address become spaces.
 */
export function buildMimeMessage(parts: MimeMessageParts): string {
  const subject = parts.subject.replace(/[\r\n]+/g, " ");
  const headers = [
    `From: ${encodeMailboxHeader(parts.from)}`,
    `To: ${parts.to.replace(/[\r\n]+/g, " ")}`,
    `Subject: ${isPlainHeaderText(subject) && subject.length <= MAX_PLAIN_SUBJECT ? subject : encodeWords(subject)}`,
    `Date: ${parts.date.toUTCString().replace(/GMT$/, "+0000")}`,
    `Message-ID: ${parts.messageId}`,
    "MIME-Version: 1.0",
  ];
  const textPart = part("text/plain", parts.text);
  if (parts.html === undefined) return [...headers, textPart].join("\r\n");
  // "=_" cannot occur in quoted-printable output (see encodeQuotedPrintable), so this boundary
  // cannot occur inside a part, whatever the text; the random half keeps it unique per message.
  const boundary = `=_tessera_${randomHex(16)}`;
  return [
    ...headers,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    textPart,
    `--${boundary}`,
    part("text/html", parts.html),
    `--${boundary}--`,
    "",
  ].join("\r\n");
}

function part(type: string, content: string): string {
  return [
    `Content-Type: ${type}; charset=utf-8`,
    "Content-Transfer-Encoding: quoted-printable",
    "",
    encodeQuotedPrintable(content),
  ].join("\r\n");
}

function randomHex(bytes: number): string {
  const random = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(random, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
