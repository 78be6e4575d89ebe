import { classifyAddress } from "./address-class.js";
import { URL_NOT_PLAIN, urlNotPlain } from "./written-url.js";

/** The rules every request to a user-supplied URL follows (see {@link checkOutboundUrl}). */
export interface OutboundPolicy {
  /**
   * Hosts reachable even though they are, or resolve to, addresses the guard refuses: names
   * (`hooks.internal`) or IP addresses (`127.0.0.1`, `::1`), compared without case. For tests
   * and for operators who deliver inside their own network on purpose.
   */
  readonly allowHosts?: readonly string[] | undefined;
  /** Refuse `http:` URLs (set it in production): only `https:` is then allowed. */
  readonly requireHttps?: boolean | undefined;
}

/** Why {@link checkOutboundUrl} refused a URL. */
export interface OutboundUrlRefusal {
  readonly ok: false;
  /** For logs, never for the user: it may name what a host resolved to. */
  readonly reason: string;
  /** For the user, on the `url` field: {@link URL_NOT_PLAIN} or {@link URL_NOT_ALLOWED}. */
  readonly fieldMessage: typeof URL_NOT_PLAIN | typeof URL_NOT_ALLOWED;
}

/** A URL {@link checkOutboundUrl} accepted, and whether its host is on the allow list. */
export interface OutboundUrlTarget {
  readonly ok: true;
  readonly url: URL;
  /** The host as compared: lower case, without brackets or a trailing dot. */
  readonly host: string;
  /** The allow list names the host: its addresses are not checked. */
  readonly allowed: boolean;
  /** The host is an IP address (no DNS lookup will happen). */
  readonly literal: boolean;
}

/** The message a refused URL gets in a form's or API's field errors (`url`). */
export const URL_NOT_ALLOWED = "is not allowed";

const MAXIMUM_URL_LENGTH = 2048;

const notAllowed = (reason: string): OutboundUrlRefusal => ({
  ok: false,
  reason,
  fieldMessage: URL_NOT_ALLOWED,
});

/** The host of a parsed URL as the allow list and the address check see it. */
export function comparableHost(hostname: string): string {
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  return bare.toLowerCase().replace(/\.$/, "");
}

/** Whether the policy's allow list names `host` (already {@link comparableHost}). */
export function hostAllowed(policy: OutboundPolicy, host: string): boolean {
  return (policy.allowHosts ?? []).some((entry) => comparableHost(entry.trim()) === host);
}

/**
 * Checks what can be known of a user-supplied URL without DNS: a URL of at most 2,048
 * characters, `http:` or `https:` (`https:` only under `requireHttps`), written plainly (no
 * user name or password, even empty, and nothing the parser would repair: see
 * {@link urlNotPlain}), and, when its host is an IP address (the URL parser has already turned
 * decimal, octal and hex IPv4 forms into dotted ones), a public address unless the allow list
 * names it. A host name is checked after resolution, at registration ({@link checkOutboundTarget})
 * and again when the request connects.
 */
export function checkOutboundUrl(
  input: string,
  policy: OutboundPolicy = {},
): OutboundUrlTarget | OutboundUrlRefusal {
  if (typeof input !== "string" || input.length > MAXIMUM_URL_LENGTH) {
    return notAllowed("the URL is missing or longer than 2048 characters");
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return notAllowed("the URL does not parse");
  }
  if (url.protocol !== "https:" && (url.protocol !== "http:" || policy.requireHttps)) {
    return notAllowed(`the scheme ${url.protocol} is not allowed`);
  }
  const notPlain = urlNotPlain(input);
  if (notPlain !== undefined) return { ok: false, reason: notPlain, fieldMessage: URL_NOT_PLAIN };
  const host = comparableHost(url.hostname);
  const allowed = hostAllowed(policy, host);
  const addressClass = classifyAddress(host);
  const literal = addressClass !== "invalid";
  if (literal && !allowed && addressClass !== "public") {
    return notAllowed(`${host} is a ${addressClass} address`);
  }
  if (!literal && !allowed && (host === "localhost" || host.endsWith(".localhost"))) {
    // RFC 6761: resolvers may answer loopback for these without asking DNS.
    return notAllowed(`${host} is a loopback name`);
  }
  return { ok: true, url, host, allowed, literal };
}

/**
 * Resolves a host name to its IP addresses (every one of them): the runtime's DNS, given to
 * the guard where it cannot hook the connection itself (Deno's `Deno.resolveDns`, Bun's
 * `dns.lookup`, Node's `dns.promises.lookup` with `all: true`).
 */
export type ResolveHost = (host: string) => Promise<readonly string[]>;

/**
 * The first address of `addresses` the policy refuses, described, or undefined when every one
 * is public. Every address counts: the connection may use any of them.
 */
export function refusedAddress(host: string, addresses: readonly string[]): string | undefined {
  if (addresses.length === 0) return `${host} resolves to no address`;
  for (const address of addresses) {
    const addressClass = classifyAddress(address);
    if (addressClass !== "public")
      return `${host} resolves to ${address}, a ${addressClass} address`;
  }
  return undefined;
}

/**
 * {@link checkOutboundUrl}, then, for a host name not on the allow list, its addresses through
 * `resolveHost`: what an app runs when a user registers a URL. A name that does not resolve
 * now is accepted (DNS may be down for a moment); every delivery checks again.
 */
export async function checkOutboundTarget(
  input: string,
  policy: OutboundPolicy,
  resolveHost?: ResolveHost,
): Promise<OutboundUrlTarget | OutboundUrlRefusal> {
  const checked = checkOutboundUrl(input, policy);
  if (!checked.ok || checked.allowed || checked.literal || !resolveHost) return checked;
  let addresses: readonly string[];
  try {
    addresses = await resolveHost(checked.host);
  } catch {
    return checked;
  }
  const refusal = refusedAddress(checked.host, addresses);
  return refusal === undefined ? checked : notAllowed(refusal);
}
