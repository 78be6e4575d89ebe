/** Longest text looked at as an IP address: a full IPv6 address with an embedded IPv4 and zone. */
const MAXIMUM_ADDRESS_LENGTH = 100;
const IPV4_PART = /^(0|[1-9][0-9]{0,2})$/;
const IPV6_GROUP = /^[0-9A-Fa-f]{1,4}$/;

/** The four bytes of a dotted-quad IPv4 address (no leading zeros, which some read as octal). */
export function parseIpv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((part) => (IPV4_PART.test(part) ? Number(part) : 256));
  return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

function parseGroups(text: string, allowIpv4Tail: boolean): number[] | undefined {
  if (text === "") return [];
  const pieces = text.split(":");
  const groups: number[] = [];
  for (const [index, piece] of pieces.entries()) {
    if (allowIpv4Tail && index === pieces.length - 1 && piece.includes(".")) {
      const ipv4 = parseIpv4(piece);
      if (!ipv4) return undefined;
      groups.push((ipv4[0]! << 8) | ipv4[1]!, (ipv4[2]! << 8) | ipv4[3]!);
    } else if (IPV6_GROUP.test(piece)) {
      groups.push(Number.parseInt(piece, 16));
    } else {
      return undefined;
    }
  }
  return groups;
}

/**
 * The eight 16-bit groups of an IPv6 address (RFC 4291 §2.2): `::` compression, an embedded
 * IPv4 tail (`::ffff:192.0.2.1`) and a zone (`fe80::1%eth0`, dropped) are understood.
 */
export function parseIpv6(text: string): number[] | undefined {
  if (text.length > MAXIMUM_ADDRESS_LENGTH) return undefined;
  const zone = text.indexOf("%");
  const address = zone >= 0 && zone < text.length - 1 ? text.slice(0, zone) : text;
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  if (halves.length === 1) {
    const groups = parseGroups(address, true);
    return groups?.length === 8 ? groups : undefined;
  }
  const head = parseGroups(halves[0]!, false);
  const tail = parseGroups(halves[1]!, true);
  if (!head || !tail || head.length + tail.length > 7) return undefined;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** Whether `text` is an IPv4 or IPv6 address, as written in `X-Forwarded-For`. */
export function isIpAddress(text: string): boolean {
  return parseIpv4(text) !== undefined || parseIpv6(text) !== undefined;
}

/** RFC 5952 text of eight groups: lower case, the first longest run of 2+ zero groups as `::`. */
export function formatIpv6(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < groups.length; ) {
    let end = start;
    while (end < groups.length && groups[end] === 0) end++;
    if (end - start > bestLength) [bestStart, bestLength] = [start, end - start];
    start = end + 1;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(":");
  const head = hex.slice(0, bestStart).join(":");
  const tail = hex.slice(bestStart + bestLength).join(":");
  return `${head}::${tail}`;
}
