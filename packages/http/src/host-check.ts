import { badRequest } from "./error-envelope.js";

/**
 * The message of the 400 for a request to a host the app does not serve: it names the setting
 * the operator changes, never the host that was sent (the answer reflects nothing).
 */
export const HOST_REFUSAL_MESSAGE = "Unknown host: add it to ALLOWED_HOSTS to serve it.";

/** How many distinct `Host` values that passed the check are remembered. */
const MAXIMUM_REMEMBERED_HOSTS = 16;

// A Host value as RFC 9110 has it: a bracketed IPv6 literal or a name, then an optional port.
// What a URL parser would read as something else (userinfo, a path, a query) is no host.
const HOST_PATTERN = /^(?:\[[0-9A-Fa-f:.]+\]|[^\s/\\?#@[\]:]+)(?::[0-9]{0,5})?$/;

/**
 * A host as the host check compares it: the name alone, without the port, lower-cased,
 * international names in punycode, IP addresses in their usual form (`[::1]`, `127.0.0.1`), a
 * final `.` dropped (`example.com.` is `example.com`). Undefined for text that names no host.
 */
export function normalizeHost(value: string): string | undefined {
  const trimmed = value.trim();
  if (!HOST_PATTERN.test(trimmed)) return undefined;
  let hostname: string;
  try {
    hostname = new URL(`http://${trimmed}`).hostname;
  } catch {
    return undefined;
  }
  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  return name === "" ? undefined : name;
}

/**
 * A host as a setting lists it: what {@link normalizeHost} reads, or an IPv6 address without
 * its brackets (`::1`), which a `Host` header never carries but an operator may well write.
 */
function listedHost(entry: string): string | undefined {
  const bareIpv6 = !entry.includes("[") && (entry.match(/:/g)?.length ?? 0) >= 2;
  return normalizeHost(bareIpv6 ? `[${entry.trim()}]` : entry);
}

/**
 * Reads `ALLOWED_HOSTS`: host names split on commas, trimmed, empty entries ignored, each
 * normalized as {@link normalizeHost} does (a port is allowed and ignored; IPv6 with or without
 * brackets).
 * @throws {TypeError} naming an entry that is not a host name (a URL with a scheme or a path).
 */
export function parseAllowedHosts(value: string | null | undefined): string[] {
  if (!value) return [];
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      const host = listedHost(entry);
      if (host === undefined) {
        throw new TypeError(
          `"${entry}" is not a host name: write the host alone, such as app.example.com`,
        );
      }
      return host;
    });
}

/**
 * The host check: given the hosts the app serves (as {@link parseAllowedHosts} reads them;
 * ports are not compared, since a proxy may change them), a function that answers a request whose
 * `Host` header names none of them, or has none, with the 400 envelope
 * {@link HOST_REFUSAL_MESSAGE}, and passes every other request (undefined). Call it before any
 * route runs: a forged `Host` then reaches no route (DNS rebinding, poisoned links).
 * @throws {TypeError} for an empty list (every request would be refused) or an entry that is
 * not a host name.
 */
export function createHostCheck(
  allowedHosts: readonly string[],
): (request: Request) => Response | undefined {
  const allowed = new Set(
    allowedHosts.map((host) => {
      const normalized = listedHost(host);
      if (normalized === undefined) throw new TypeError(`"${host}" is not a host name`);
      return normalized;
    }),
  );
  if (allowed.size === 0) throw new TypeError("the host check needs at least one host to allow");
  // Clients send the same Host on every request: the values already let through skip the URL
  // parse of normalizeHost. Only passed values are kept, at most a few, since the client
  // chooses the header (ports, case) and could otherwise grow the set without end.
  const passed = new Set<string>();
  return (request) => {
    const host = request.headers.get("host");
    if (host === null) return badRequest(HOST_REFUSAL_MESSAGE, "unknown_host");
    if (passed.has(host)) return undefined;
    const normalized = normalizeHost(host);
    if (normalized === undefined || !allowed.has(normalized)) {
      return badRequest(HOST_REFUSAL_MESSAGE, "unknown_host");
    }
    if (passed.size < MAXIMUM_REMEMBERED_HOSTS) passed.add(host);
    return undefined;
  };
}
