import { formatIpv6, isIpAddress, parseIpv4, parseIpv6 } from "./ip-address.js";

/** What {@link clientIp} decides from. */
export interface ClientIpSource {
  /** The peer address of the TCP connection. */
  readonly socketAddress: string | undefined;
  /** Every `X-Forwarded-For` value, in order (one joined text, as `Headers.get` gives, is fine). */
  readonly forwardedFor?: string | readonly string[] | null | undefined;
  /** `TRUST_PROXY`: how many proxies in front of the app append to `X-Forwarded-For`. */
  readonly trustProxy?: number | undefined;
}

/**
 * The client's IP address for rate limits and session lists. The socket address, unless
 * `trustProxy` is N > 0: then the N-th `X-Forwarded-For` entry from the right, the address the
 * outermost trusted proxy saw. Entries left of it are written by the client and never used.
 * A list shorter than N or an entry that is not an IP address gives the socket address.
 */
export function clientIp({
  socketAddress,
  forwardedFor,
  trustProxy = 0,
}: ClientIpSource): string | undefined {
  if (!Number.isInteger(trustProxy) || trustProxy <= 0) return socketAddress;
  const joined = typeof forwardedFor === "string" ? forwardedFor : (forwardedFor ?? []).join(",");
  const entries = joined.split(",").map((entry) => entry.trim());
  if (entries.length < trustProxy) return socketAddress;
  const entry = entries[entries.length - trustProxy]!;
  return isIpAddress(entry) ? entry : socketAddress;
}

/**
 * The rate-limit key of an address: an IPv4 address as it is; an IPv6 address as its /64
 * prefix (`2001:db8:1:2::/64`), since one subscriber usually holds a whole /64; an IPv4-mapped
 * IPv6 address (`::ffff:192.0.2.1`, as Node reports IPv4 peers on dual-stack sockets) as its
 * IPv4 address. Text that is no IP address is returned unchanged.
 */
export function rateLimitClientKey(ip: string): string {
  const address = ip.trim();
  if (parseIpv4(address)) return address;
  const groups = parseIpv6(address);
  if (!groups) return ip;
  const isIpv4Mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (isIpv4Mapped) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  }
  return `${formatIpv6([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}
