import { tooLargeMessage, unsupportedTypeMessage } from "./messages.js";

/** Size and content-type limits for an uploaded file. */
export interface AttachmentRules {
  /** Largest accepted size in bytes. */
  readonly maxBytes: number;
  /** Accepted media types, lower case, without parameters. */
  readonly contentTypes: readonly string[];
}

/** The defaults: 10 MB (10 × 1024 × 1024 bytes) and six common document and image types. */
export const DEFAULT_ATTACHMENT_RULES: AttachmentRules = {
  maxBytes: 10 * 1024 * 1024,
  contentTypes: [
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "application/pdf",
    "text/plain",
  ],
};

/** The parts of an uploaded file the rules look at (a WHATWG `File` has them). */
export interface FileFacts {
  readonly size: number;
  /** The declared media type; parameters (`; charset=utf-8`) and letter case are ignored. */
  readonly type: string;
}

/**
 * The messages a file earns under `rules`, both at once when both fail; empty when it passes.
 * The type is the one the client declared: sniff the bytes as well if that matters to you.
 */
export function validateAttachment(
  file: FileFacts,
  rules: AttachmentRules = DEFAULT_ATTACHMENT_RULES,
): string[] {
  const messages: string[] = [];
  if (file.size > rules.maxBytes) messages.push(tooLargeMessage(rules.maxBytes));
  if (!rules.contentTypes.includes(mediaType(file.type))) {
    messages.push(unsupportedTypeMessage(rules.contentTypes));
  }
  return messages;
}

/** `Text/Plain; charset=utf-8` → `text/plain`. */
export function mediaType(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}
