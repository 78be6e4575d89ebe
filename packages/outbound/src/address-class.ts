import ipaddr from "ipaddr.js";

/**
 * What an IP address is, as far as an outbound request is concerned: `public` may be reached;
 * every other value names why not (`loopback`, `private`, `linkLocal`, `carrierGradeNat`,
 * `uniqueLocal`, `multicast`, `unspecified`, `broadcast`, `reserved`, …, or `invalid`).
 */
export type AddressClass = "public" | (string & {});

// IPv6 forms that carry an IPv4 address inside them: the packet may end up at that address
// (a mapped socket, a NAT64 gateway, a 6to4 relay, a host still treating ::/96 as IPv4), so it
// is that address that is classified. The rest of the prefixes ipaddr.js names (Teredo, ORCHID,
// discard, site-local, …) are not destinations a webhook receiver has: anything not plain
// `unicast` is refused.
function embeddedIPv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const parts = address.parts;
  const fromWords = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (range) {
    case "unicast":
      // IPv4-compatible ::a.b.c.d (RFC 4291, deprecated): ipaddr.js calls it unicast when it is
      // written in hex (::7f00:1, the URL parser's spelling of [::127.0.0.1]); ::1 and :: have
      // ranges of their own and never get here.
      return parts.slice(0, 6).every((part) => part === 0)
        ? fromWords(parts[6]!, parts[7]!)
        : undefined;
    case "ipv4Mapped": // ::ffff:a.b.c.d (and ipaddr.js files the dotted ::a.b.c.d here too)
    case "rfc6145": // ::ffff:0:a.b.c.d
      return fromWords(parts[6]!, parts[7]!);
    case "rfc6052": // 64:ff9b::a.b.c.d; the local-use 64:ff9b:1::/48 is refused as unknown
      return parts[2] === 0 ? fromWords(parts[6]!, parts[7]!) : undefined;
    case "6to4": // 2002:AABB:CCDD::/48
      return fromWords(parts[1]!, parts[2]!);
    default:
      return undefined;
  }
}

/**
 * Classifies an IP address given as text (dotted IPv4, or IPv6 with or without brackets), after
 * unwrapping the IPv6 forms that carry an IPv4 address (IPv4-compatible, mapped, NAT64, 6to4):
 * only `public` addresses may be the target of a request to a user-supplied URL. Uses
 * ipaddr.js's tables (the ones express's proxy-addr trusts) rather than a hand-kept list.
 */
export function classifyAddress(text: string): AddressClass {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  // Only the four-part dotted form: ipaddr.js would also read "0x7f.1" or "2130706433", which
  // here must come through the URL parser (which normalises them) or not at all.
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) address = ipaddr.IPv4.parse(bare);
  else if (ipaddr.IPv6.isValid(bare)) address = ipaddr.IPv6.parse(bare);
  else return "invalid";
  if (address.kind() === "ipv6") {
    const v6 = address as ipaddr.IPv6;
    // A zone (fe80::1%eth0) only ever scopes a link-local address.
    if (v6.zoneId !== undefined) return "linkLocal";
    const range = v6.range();
    const inner = embeddedIPv4(v6, range);
    if (inner) return rangeClass(inner.range());
    return rangeClass(range);
  }
  return rangeClass((address as ipaddr.IPv4).range());
}

function rangeClass(range: string): AddressClass {
  return range === "unicast" ? "public" : range;
}
