import { decodeBase64url, encodeBase64url } from "@tessera/crypto";

/** A link to a provider account that waits for the sign-in's second step. */
export interface PendingLink {
  readonly provider: string;
  readonly subject: string;
}

// Session values are at most 76 URL-safe characters here: a longer link is not kept, and the
// provider account is then linked at a later sign-in instead (the person is signed in alike).
const MAXIMUM_VALUE_LENGTH = 76;

/** The provider account as a session value; undefined when it does not fit in one. */
export function pendingLinkValue(provider: string, subject: string): string | undefined {
  const value = encodeBase64url(new TextEncoder().encode(`${provider}\n${subject}`));
  return value.length <= MAXIMUM_VALUE_LENGTH ? value : undefined;
}

/** The provider account a session value names; undefined for one {@link pendingLinkValue} did not write. */
export function readPendingLink(value: string): PendingLink | undefined {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(decodeBase64url(value));
    const separator = text.indexOf("\n");
    if (separator < 1 || separator === text.length - 1) return undefined;
    return { provider: text.slice(0, separator), subject: text.slice(separator + 1) };
  } catch {
    return undefined;
  }
}
