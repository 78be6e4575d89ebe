import { encodeBase64url, randomBytes, randomToken } from "@tessera/crypto";

// 24 characters of a random token: 144 bits, and URL- and header-safe (base64url).
const randomPart = () => randomToken().slice(0, 24);

/** A new endpoint id: `ep_` and 24 random characters. */
export const newEndpointId = (): string => `ep_${randomPart()}`;

// Base 36 in lower case sorts the same byte by byte and in every collation; 9 digits hold
// every millisecond until the year 5138.
const TIME_DIGITS = 9;

/**
 * A new message id, the `webhook-id` of its deliveries: `msg_`, its time (`now`, epoch
 * milliseconds) in 9 base-36 digits, then 15 random base64url characters (90 bits). Ids made
 * later sort after earlier ones, so each new message (and its outbox items, whose keys start
 * with its id) lands at the end of its indexes instead of on a random page of them.
 */
export function newMessageId(now: number): string {
  const time = Math.max(0, Math.trunc(now)).toString(36).padStart(TIME_DIGITS, "0");
  return `msg_${time.slice(-TIME_DIGITS)}${encodeBase64url(randomBytes(12)).slice(0, 15)}`;
}
